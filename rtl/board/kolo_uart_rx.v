`default_nettype none
// kolo_uart_rx - UART receiver, 8N1, least significant bit first.
//
// rxd is asynchronous: two flip-flops bring it into clk. Timing: a phase
// accumulator ticks 16 times per bit (BAUD * 16 added every clock, a tick
// when it passes CLK_HZ). A falling edge on the idle line starts a frame;
// 8 ticks later (the middle of the start bit) the line must still be low
// (else it was a glitch, ignored); then each bit is sampled 16 ticks after
// the previous one. A stop bit that reads low is a framing error: the byte
// is dropped, frame_err pulses, and the receiver waits for the line to go
// high before it looks for the next start bit (a break holds it there).
// Output: m_valid pulses for one cycle with m_data (no back-pressure: a
// byte comes at most every 10 bit times; the caller takes it or loses it).
// Reset: rst synchronous, active high.
module kolo_uart_rx #(
    parameter CLK_HZ = 50000000,
    parameter BAUD   = 1000000
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       rxd,
    output reg        m_valid,
    output reg  [7:0] m_data,
    output reg        frame_err
);
  generate
    if (BAUD <= 0 || CLK_HZ < 16 * BAUD || CLK_HZ >= (1 << 30)) begin : g_bad_rate
      kolo_uart_rx_PARAMETER_ERROR_BAUD_at_most_CLK_HZ_over_16 u_error ();
    end
  endgenerate

  localparam [31:0] CLK = CLK_HZ;
  localparam [31:0] STEP = 16 * BAUD;
  (* ASYNC_REG = "TRUE" *) reg [1:0] sync;
  always @(posedge clk) sync <= rst ? 2'b11 : {sync[0], rxd};
  wire line = sync[1];

  reg [31:0] acc;
  wire [31:0] acc_step = acc + STEP;
  wire tick = acc_step >= CLK;
  always @(posedge clk) begin
    if (rst) acc <= 32'd0;
    else acc <= tick ? acc_step - CLK : acc_step;
  end

  localparam S_IDLE = 2'd0, S_START = 2'd1, S_DATA = 2'd2, S_WAIT_HIGH = 2'd3;
  reg [1:0] state;
  reg [3:0] ticks;   // ticks until the next sample
  reg [3:0] nbit;    // data bits received
  reg [7:0] shift;
  always @(posedge clk) begin
    m_valid <= 1'b0;
    frame_err <= 1'b0;
    if (rst) begin
      state <= S_WAIT_HIGH;
      ticks <= 4'd0;
      nbit <= 4'd0;
      shift <= 8'd0;
      m_data <= 8'd0;
    end else begin
      case (state)
        S_IDLE: if (!line) begin
          state <= S_START;
          ticks <= 4'd7;             // the middle of the start bit
        end
        S_START: if (tick) begin
          if (ticks != 4'd0) ticks <= ticks - 4'd1;
          else if (line) state <= S_IDLE;  // a glitch
          else begin
            state <= S_DATA;
            ticks <= 4'd15;
            nbit <= 4'd0;
          end
        end
        S_DATA: if (tick) begin
          if (ticks != 4'd0) ticks <= ticks - 4'd1;
          else begin
            ticks <= 4'd15;
            if (nbit != 4'd8) begin
              shift <= {line, shift[7:1]};
              nbit <= nbit + 4'd1;
            end else if (line) begin   // stop bit
              m_valid <= 1'b1;
              m_data <= shift;
              state <= S_IDLE;
            end else begin
              frame_err <= 1'b1;
              state <= S_WAIT_HIGH;
            end
          end
        end
        default: if (line) state <= S_IDLE;  // S_WAIT_HIGH
      endcase
    end
  end
endmodule
`default_nettype wire
