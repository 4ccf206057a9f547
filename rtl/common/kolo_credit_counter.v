`default_nettype none
// kolo_credit_counter - credit counter for credit-based flow control.
//
// count starts at INIT (0..MAX) on reset. inc returns one credit, dec spends
// one; both in the same cycle leave count unchanged (a credit came back as
// another left). available = (count != 0): the sender may spend a credit
// this cycle. A lone inc at count == MAX or a lone dec at count == 0 is a
// protocol error: count saturates (never wraps) and the sticky error bit is
// set until the next reset.
module kolo_credit_counter #(
    parameter MAX  = 8,
    parameter INIT = MAX
) (
    input  wire                     clk,
    input  wire                     rst,
    input  wire                     inc,
    input  wire                     dec,
    output wire [$clog2(MAX+1)-1:0] count,
    output wire                     available,
    output reg                      error
);
  localparam integer CW = $clog2(MAX + 1);
  localparam [CW-1:0] TOP = MAX[CW-1:0];
  localparam [CW-1:0] START = INIT[CW-1:0];
  localparam [CW-1:0] ONE = 1;

  reg [CW-1:0] credits;
  assign count = credits;
  assign available = (credits != {CW{1'b0}});

  always @(posedge clk) begin
    if (rst) begin
      credits <= START;
      error   <= 1'b0;
    end else if (inc && !dec) begin
      if (credits == TOP) error <= 1'b1;
      else credits <= credits + ONE;
    end else if (dec && !inc) begin
      if (credits == {CW{1'b0}}) error <= 1'b1;
      else credits <= credits - ONE;
    end
  end

`ifdef FORMAL
  /* verilator lint_off WIDTH */  // formal-only arithmetic
  reg f_past_valid = 1'b0;
  always @(posedge clk) f_past_valid <= 1'b1;
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;

  always @(*) begin
    assert(available == (count != 0));
    if (f_rst_seen) assert(count <= MAX);
  end

  // Next-state model, written arithmetically (independent of the above).
  // The previous cycle's values are kept in explicit registers rather than
  // $past: Verilator 5.006 (these checks run in every simulation) can sample
  // $past of a register after its update in the same edge.
  reg f_inc_q, f_dec_q, f_error_q, f_rst_q;
  reg [CW-1:0] f_count_q;
  always @(posedge clk) begin
    f_inc_q <= inc;
    f_dec_q <= dec;
    f_error_q <= error;
    f_rst_q <= rst;
    f_count_q <= count;
  end
  always @(posedge clk) begin
    if (f_past_valid && f_rst_seen && !f_rst_q) begin
      if (f_inc_q == f_dec_q) begin
        assert(count == f_count_q);
      end else if (f_inc_q) begin
        assert(count == ((f_count_q == MAX) ? MAX : f_count_q + 1));
      end else begin
        assert(count == ((f_count_q == 0) ? 0 : f_count_q - 1));
      end
      assert(error == (f_error_q
                       || (f_inc_q && !f_dec_q && f_count_q == MAX)
                       || (f_dec_q && !f_inc_q && f_count_q == 0)));
    end
    if (f_past_valid && f_rst_q) assert(count == INIT && !error);
  end

  always @(*) if (f_rst_seen) cover(error && count == MAX);
  /* verilator lint_on WIDTH */
`endif
endmodule
`default_nettype wire
