`default_nettype none
// kolo_arb_rr - round-robin arbiter for N requesters (N = 1..32).
//
// grant is combinational from req and the priority state: one-hot or zero,
// always a subset of req, and non-zero whenever req is non-zero.
// Priority: the search for a requester starts at a pointer and wraps around.
// On a cycle with advance && |grant the pointer moves to the requester just
// after the granted one, so the winner becomes the lowest priority. With
// advance low (the grant was not used) the priority is kept, and the same
// requester wins again if it still requests. A requester that keeps its
// request high waits for at most N-1 used (advanced) grants to others.
// Implementation: the pointer is kept as a thermometer mask (ones at and
// above the pointer); the grant is the lowest request inside the mask, or
// the lowest request overall when the mask holds none (two find-first-set
// operations, x & -x).
// Synchronous active-high rst sets the priority to requester 0.
module kolo_arb_rr #(
    parameter N = 4
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [N-1:0] req,
    input  wire         advance,
    output wire [N-1:0] grant
);
  localparam [N-1:0] ONE = 1;

  reg  [N-1:0] mask;  // requesters at or above the pointer
  wire [N-1:0] req_hi = req & mask;
  wire [N-1:0] first_hi = req_hi & (~req_hi + ONE);
  wire [N-1:0] first_any = req & (~req + ONE);

  assign grant = (req_hi != {N{1'b0}}) ? first_hi : first_any;

  // Ones strictly above the granted bit; all zero when the top one won (wrap).
  wire [N-1:0] upto_grant = (grant << 1) - ONE;

  always @(posedge clk) begin
    if (rst) mask <= {N{1'b1}};
    else if (advance && grant != {N{1'b0}}) mask <= ~upto_grant;
  end

`ifdef FORMAL
  /* verilator lint_off WIDTH */  // formal-only arithmetic
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;

  // Pointer position: the lowest set bit of the mask (0 if the mask is empty).
  integer f_k;
  reg [5:0] f_ptr;
  always @(*) begin
    f_ptr = 6'd0;
    for (f_k = N - 1; f_k >= 0; f_k = f_k - 1) if (mask[f_k]) f_ptr = f_k[5:0];
  end

  always @(*) begin
    assert((grant & (grant - ONE)) == {N{1'b0}});  // one-hot or zero
    assert((grant & ~req) == {N{1'b0}});  // subset of req
    assert((req == {N{1'b0}}) || (grant != {N{1'b0}}));  // work-conserving
    // the mask is a thermometer code
    if (f_rst_seen) assert(((mask << 1) & ~mask) == {N{1'b0}});
  end

  // No starvation: follow one arbitrary requester f_who. While it requests,
  // every advanced grant to someone else moves the pointer strictly closer
  // to it, so it waits for at most N-1 of them. In simulation (Verilator
  // builds define FORMAL too) f_who is drawn once at start-up.
`ifdef YOSYS
  (* anyconst *) wire [5:0] f_who;
`else
  reg [5:0] f_who;
  initial f_who = 6'($urandom);
`endif
  reg [5:0] f_waited = 6'd0;
  wire f_req = req[f_who % N];
  wire f_won = grant[f_who % N];
  always @(posedge clk) begin
    if (rst || !f_req || (advance && f_won)) f_waited <= 6'd0;
    else if (advance && grant != {N{1'b0}}) f_waited <= f_waited + 6'd1;
  end
  // distance from the pointer to f_who, in the direction of the search
  wire [5:0] f_dist = (f_who % N >= f_ptr) ? f_who % N - f_ptr : N + f_who % N - f_ptr;
  always @(*) begin
    if (f_rst_seen) begin
      assert(f_waited <= N - 1);
      if (f_waited != 0) assert(f_waited + f_dist <= N - 1);
    end
  end
  always @(*) if (f_rst_seen) cover(f_waited == N - 1);
  /* verilator lint_on WIDTH */
`endif
endmodule
`default_nettype wire
