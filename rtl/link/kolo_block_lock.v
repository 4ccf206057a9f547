`default_nettype none
// kolo_block_lock - 64b/66b block lock of one lane, in the style of IEEE 802.3
// clause 49 (lock_fsm), one block per clk cycle.
//
// sync_hdr is the (unscrambled) sync header of this cycle's block; 01 and 10
// are valid, 00 and 11 invalid. A cycle is a block when valid is high (a
// transceiver gearbox leaves gaps); counts and waits below are in blocks.
//   - Unlocked: count consecutive valid headers; the 64th sets lock. An
//     invalid header pulses slip (one cycle) and restarts counting after
//     SLIP_WAIT cycles, during which headers are ignored (the lane needs time
//     to move its boundary; a GTX gearbox takes a few tens of cycles).
//   - Locked: headers are judged in windows of 64 blocks; the 16th invalid
//     header of a window drops lock and pulses slip (then as unlocked). A
//     window that ends with fewer than 16 invalid headers is forgotten.
// lock and slip are registered: lock rises the cycle after the 64th valid
// header, slip is high for the one cycle after the header that caused it.
// Synchronous active-high rst: unlocked, counting from zero.
module kolo_block_lock #(
    parameter SLIP_WAIT = 16  // cycles ignored after a slip, >= 1
) (
    input  wire       clk,
    input  wire       rst,
    input  wire       valid,
    input  wire [1:0] sync_hdr,
    output reg        lock,
    output reg        slip
);
  localparam integer WW = (SLIP_WAIT < 1) ? 1 : $clog2(SLIP_WAIT + 1);
  localparam integer SLIP_WAIT_I = SLIP_WAIT;
  localparam [WW-1:0] WAIT_N = SLIP_WAIT_I[WW-1:0];
  localparam [WW-1:0] WAIT_ONE = 1;

  generate
    if (SLIP_WAIT < 1) begin : g_bad_wait
      kolo_block_lock_PARAMETER_ERROR_SLIP_WAIT_at_least_1 u_error ();
    end
  endgenerate

  wire hdr_ok = sync_hdr[1] ^ sync_hdr[0];
  reg [WW-1:0] wait_cnt;  // cycles still to ignore after a slip
  reg [5:0] blk_cnt;      // unlocked: valid headers in a row; locked: position in window
  reg [3:0] bad_cnt;      // locked: invalid headers in this window

  always @(posedge clk) begin
    if (rst) begin
      lock     <= 1'b0;
      slip     <= 1'b0;
      wait_cnt <= {WW{1'b0}};
      blk_cnt  <= 6'd0;
      bad_cnt  <= 4'd0;
    end else begin
      slip <= 1'b0;
      if (!valid) begin
        // a gap: nothing moves
      end else if (wait_cnt != {WW{1'b0}}) begin
        wait_cnt <= wait_cnt - WAIT_ONE;
      end else if (!lock) begin
        if (!hdr_ok) begin
          slip     <= 1'b1;
          wait_cnt <= WAIT_N;
          blk_cnt  <= 6'd0;
        end else if (blk_cnt == 6'd63) begin
          lock    <= 1'b1;
          blk_cnt <= 6'd0;
          bad_cnt <= 4'd0;
        end else begin
          blk_cnt <= blk_cnt + 6'd1;
        end
      end else begin
        if (!hdr_ok && bad_cnt == 4'd15) begin
          lock     <= 1'b0;
          slip     <= 1'b1;
          wait_cnt <= WAIT_N;
          blk_cnt  <= 6'd0;
          bad_cnt  <= 4'd0;
        end else if (blk_cnt == 6'd63) begin
          blk_cnt <= 6'd0;
          bad_cnt <= 4'd0;
        end else begin
          blk_cnt <= blk_cnt + 6'd1;
          if (!hdr_ok) bad_cnt <= bad_cnt + 4'd1;
        end
      end
    end
  end
endmodule
`default_nettype wire
