`default_nettype none
// kolo_alloc_sep - separable input-first allocator, N_IN inputs x N_OUT outputs.
//
// req[i*N_OUT+o]: input i asks for output o. grant has the same layout and is
// combinational: a matching (at most one grant per input and per output), a
// subset of req, and non-empty whenever req is non-empty.
// Stage 1: one round-robin arbiter per input chooses one of its requested
// outputs. Stage 2: one round-robin arbiter per output chooses one of the
// inputs that chose it. An output arbiter advances whenever it grants; an
// input arbiter advances only when its choice won stage 2, so an input that
// lost keeps its choice and its priority (this is what makes it fair, and
// under full load lets the input pointers spread out to a full matching).
// Synchronous active-high rst resets every arbiter.
module kolo_alloc_sep #(
    parameter N_IN  = 4,
    parameter N_OUT = 4
) (
    input  wire                   clk,
    input  wire                   rst,
    input  wire [N_IN*N_OUT-1:0]  req,
    output wire [N_IN*N_OUT-1:0]  grant
);
  // choice[i*N_OUT+o]: stage-1 result of input i.
  wire [N_IN*N_OUT-1:0] choice;
  // Same choices, transposed: choice_t[o*N_IN+i].
  wire [N_IN*N_OUT-1:0] choice_t;
  // Stage-2 result, transposed: grant_t[o*N_IN+i].
  wire [N_IN*N_OUT-1:0] grant_t;

  genvar i, o;
  generate
    for (i = 0; i < N_IN; i = i + 1) begin : g_in
      kolo_arb_rr #(
          .N(N_OUT)
      ) u_arb (
          .clk(clk),
          .rst(rst),
          .req(req[i*N_OUT+:N_OUT]),
          .advance(grant[i*N_OUT+:N_OUT] != {N_OUT{1'b0}}),
          .grant(choice[i*N_OUT+:N_OUT])
      );
      for (o = 0; o < N_OUT; o = o + 1) begin : g_t
        assign choice_t[o*N_IN+i] = choice[i*N_OUT+o];
        assign grant[i*N_OUT+o]   = grant_t[o*N_IN+i];
      end
    end

    for (o = 0; o < N_OUT; o = o + 1) begin : g_out
      kolo_arb_rr #(
          .N(N_IN)
      ) u_arb (
          .clk(clk),
          .rst(rst),
          .req(choice_t[o*N_IN+:N_IN]),
          .advance(1'b1),
          .grant(grant_t[o*N_IN+:N_IN])
      );
    end
  endgenerate

`ifdef FORMAL
  /* verilator lint_off WIDTH */  // formal-only arithmetic
  integer f_i, f_o;
  reg f_matching;
  always @(*) begin
    f_matching = 1'b1;
    for (f_i = 0; f_i < N_IN; f_i = f_i + 1)
      if ((grant[f_i*N_OUT+:N_OUT] & (grant[f_i*N_OUT+:N_OUT] - 1'b1)) != 0) f_matching = 1'b0;
    for (f_o = 0; f_o < N_OUT; f_o = f_o + 1)
      if ((grant_t[f_o*N_IN+:N_IN] & (grant_t[f_o*N_IN+:N_IN] - 1'b1)) != 0) f_matching = 1'b0;
  end
  always @(*) begin
    assert(f_matching);
    assert((grant & ~req) == 0);
    assert(req == 0 || grant != 0);
  end
  // a full matching is reachable
  localparam integer F_FULL = (N_IN < N_OUT) ? N_IN : N_OUT;
  integer f_k;
  reg [7:0] f_ngrant;
  always @(*) begin
    f_ngrant = 8'd0;
    for (f_k = 0; f_k < N_IN * N_OUT; f_k = f_k + 1) f_ngrant = f_ngrant + {7'd0, grant[f_k]};
  end
  always @(*) cover(req == {(N_IN*N_OUT){1'b1}} && f_ngrant == F_FULL);
  /* verilator lint_on WIDTH */
`endif
endmodule
`default_nettype wire
