`default_nettype none
// kolo_svc_evt - the event FIFO of the service block (EVT_STATUS, EVT_DATA,
// EVT_LOST, EVT_CTRL): DEPTH 32-bit events in distributed RAM.
//
// One pop (a bus read of EVT_DATA) and one push per cycle; the pop counts
// first, so a push into a full FIFO that is popped in the same cycle is
// kept. A push into a FIFO that stays full is lost: LOST counts it and
// OVERFLOW is set (a clear in the same cycle loses to it). head_data is the
// oldest event, 0 (EVT_NONE) when empty.
module kolo_svc_evt #(
    parameter DEPTH_LOG2 = 5
) (
    input  wire                clk,
    input  wire                rst,
    input  wire                push,
    input  wire [31:0]         push_data,
    input  wire                pop,
    input  wire                clear,
    output wire [31:0]         head_data,
    output reg  [DEPTH_LOG2:0] count,
    output reg                 overflow,
    output reg  [31:0]         lost
);
  localparam [DEPTH_LOG2:0] DEPTH = 1 << DEPTH_LOG2;
  localparam [DEPTH_LOG2:0] ONE = 1;

  reg [31:0] mem[0:(1<<DEPTH_LOG2)-1];
  reg [DEPTH_LOG2-1:0] rd_ptr, wr_ptr;

  wire popped = pop && count != 0;
  wire full_after_pop = count == DEPTH && !popped;
  wire pushed = push && !full_after_pop;
  assign head_data = count != 0 ? mem[rd_ptr] : 32'd0;

  always @(posedge clk) begin
    if (rst) begin
      rd_ptr <= {DEPTH_LOG2{1'b0}};
      wr_ptr <= {DEPTH_LOG2{1'b0}};
      count <= {(DEPTH_LOG2+1){1'b0}};
      overflow <= 1'b0;
      lost <= 32'd0;
    end else begin
      if (popped) rd_ptr <= rd_ptr + 1'b1;
      if (pushed) wr_ptr <= wr_ptr + 1'b1;
      count <= count - (popped ? ONE : {(DEPTH_LOG2+1){1'b0}}) + (pushed ? ONE : {(DEPTH_LOG2+1){1'b0}});
      if (push && full_after_pop) begin
        overflow <= 1'b1;
        lost <= lost + 32'd1;
      end else if (clear) begin
        overflow <= 1'b0;
      end
    end
  end

  always @(posedge clk) if (pushed) mem[wr_ptr] <= push_data;
endmodule
`default_nettype wire
