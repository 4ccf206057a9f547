`default_nettype none
// kolo_uart_tx - UART transmitter, 8 data bits, no parity, one stop bit
// (8N1), least significant bit first, line idle high.
//
// Bit timing comes from a phase accumulator (BAUD added every clock, a bit
// ends when it passes CLK_HZ), so any BAUD below CLK_HZ / 4 works without an
// integer divider; a bit lasts floor or ceil of CLK_HZ / BAUD clocks and
// the average rate is exact (1 Mbaud from 50 MHz: 50 clocks per bit; from
// 48.8 MHz: 48 or 49).
// Handshake: s_valid / s_ready, s_data taken in the cycle both are high;
// s_ready is high while the transmitter is idle (one byte in flight, no
// buffer: a FIFO in front, if wanted, is the caller's). Latency: the start
// bit begins the cycle after the byte is taken.
// Reset: rst synchronous, active high: the line goes idle (high) at once,
// a byte in flight is cut short.
module kolo_uart_tx #(
    parameter CLK_HZ = 50000000,
    parameter BAUD   = 1000000
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       s_valid,
    output wire       s_ready,
    input  wire [7:0] s_data,
    output reg        txd
);
  generate
    if (BAUD <= 0 || CLK_HZ < 4 * BAUD || CLK_HZ >= (1 << 30)) begin : g_bad_rate
      kolo_uart_tx_PARAMETER_ERROR_BAUD_at_most_CLK_HZ_over_4 u_error ();
    end
  endgenerate

  localparam [31:0] CLK = CLK_HZ;
  localparam [31:0] STEP = BAUD;
  reg [31:0] acc;       // phase within the current bit, 0..CLK_HZ-1
  reg [3:0]  nbit;      // bits left to send: 10 (start, 8 data, stop) .. 0 idle
  reg [8:0]  shift;     // {stop, data} still to send, bit 0 next
  wire [31:0] acc_step = acc + STEP;
  wire bit_end = acc_step >= CLK;

  assign s_ready = (nbit == 4'd0);
  always @(posedge clk) begin
    if (rst) begin
      txd <= 1'b1;
      nbit <= 4'd0;
      acc <= 32'd0;
      shift <= 9'h1ff;
    end else if (nbit == 4'd0) begin
      acc <= 32'd0;
      if (s_valid) begin
        txd <= 1'b0;                 // start bit
        shift <= {1'b1, s_data};
        nbit <= 4'd10;
      end
    end else begin
      acc <= bit_end ? acc_step - CLK : acc_step;
      if (bit_end) begin
        nbit <= nbit - 4'd1;
        if (nbit != 4'd1) begin
          txd <= shift[0];
          shift <= {1'b1, shift[8:1]};
        end else begin
          txd <= 1'b1;               // stop bit done: idle
        end
      end
    end
  end
endmodule
`default_nettype wire
