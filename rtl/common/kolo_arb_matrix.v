`default_nettype none
// kolo_arb_matrix - matrix (least-recently-granted) arbiter for N requesters
// (N = 1..32; the state grows as N*(N-1)/2 flip-flops).
//
// Same interface and rules as kolo_arb_rr: grant is combinational, one-hot or
// zero, a subset of req, and non-zero whenever req is non-zero. The state is
// a total order of the requesters: one bit per pair {i, j} (i < j) says
// whether i currently beats j. The grant goes to the requester that no other
// active requester beats. On a cycle with advance && |grant the granted
// requester drops to the bottom of the order (it loses to everyone); with
// advance low the order is kept. A requester that keeps its request high
// waits for at most N-1 advanced grants to others.
// Synchronous active-high rst orders the requesters by index (0 highest).
module kolo_arb_matrix #(
    parameter N = 4
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [N-1:0] req,
    input  wire         advance,
    output wire [N-1:0] grant
);
  generate
    if (N == 1) begin : g_single
      assign grant = req;
      // One requester has nothing to be ordered against.
      wire unused_ok = &{1'b0, clk, rst, advance};
    end else begin : g_matrix
      localparam integer PAIRS = N * (N - 1) / 2;

      // upper[pair(i,j)] for i < j: i beats j.
      reg  [PAIRS-1:0] upper;
      wire [PAIRS-1:0] upper_next;
      wire used = advance && (grant != {N{1'b0}});

      always @(posedge clk) begin
        if (rst) upper <= {PAIRS{1'b1}};
        else if (used) upper <= upper_next;
      end

      genvar i, j;
      for (i = 0; i < N; i = i + 1) begin : g_row
        // beaten_by[j]: requester j beats requester i (0 for j == i).
        wire [N-1:0] beaten_by;
        for (j = 0; j < N; j = j + 1) begin : g_col
          if (i < j) begin : g_upper
            localparam integer P = i * N - i * (i + 1) / 2 + (j - i - 1);
            assign beaten_by[j] = !upper[P];
            // the winner drops below everyone
            assign upper_next[P] = grant[i] ? 1'b0 : (grant[j] ? 1'b1 : upper[P]);
          end else if (i > j) begin : g_lower
            localparam integer P = j * N - j * (j + 1) / 2 + (i - j - 1);
            assign beaten_by[j] = upper[P];
          end else begin : g_diag
            assign beaten_by[j] = 1'b0;
          end
        end
        assign grant[i] = req[i] && ((req & beaten_by) == {N{1'b0}});
      end

`ifdef FORMAL
      /* verilator lint_off WIDTH */  // formal-only arithmetic
      wire [N*N-1:0] blocked_by;  // blocked_by[x*N+y]: y beats x
      for (i = 0; i < N; i = i + 1) begin : g_f_row
        assign blocked_by[i*N+:N] = g_row[i].beaten_by;
      end
      reg f_rst_seen = 1'b0;
      always @(posedge clk) if (rst) f_rst_seen <= 1'b1;

      // beats(a, b) through blocked_by
      integer f_a, f_b, f_c;
      reg f_transitive;
      always @(*) begin
        f_transitive = 1'b1;
        for (f_a = 0; f_a < N; f_a = f_a + 1)
          for (f_b = 0; f_b < N; f_b = f_b + 1)
            for (f_c = 0; f_c < N; f_c = f_c + 1)
              if (blocked_by[f_b*N+f_a] && blocked_by[f_c*N+f_b] && !blocked_by[f_c*N+f_a])
                f_transitive = 1'b0;
      end

      localparam [N-1:0] ONE = 1;
      always @(*) begin
        assert((grant & (grant - ONE)) == {N{1'b0}});
        assert((grant & ~req) == {N{1'b0}});
        // The order is a total order (antisymmetric by construction, and
        // transitive), which is what makes the grant one-hot and non-zero.
        if (f_rst_seen) begin
          assert(f_transitive);
          assert((req == {N{1'b0}}) || (grant != {N{1'b0}}));
        end
      end

      // No starvation: while f_who requests, each advanced grant to another
      // requester takes one requester from above f_who to below it.
      // (in simulation, where Verilator builds define FORMAL too, f_who is
      // drawn once at start-up)
`ifdef YOSYS
      (* anyconst *) wire [5:0] f_who;
`else
      reg [5:0] f_who;
      initial f_who = 6'($urandom);
`endif
      reg [5:0] f_waited = 6'd0;
      wire [N-1:0] f_above = blocked_by[(f_who%N)*N+:N];
      reg [5:0] f_n_above;
      integer f_k;
      always @(*) begin
        f_n_above = 6'd0;
        for (f_k = 0; f_k < N; f_k = f_k + 1) f_n_above = f_n_above + {5'd0, f_above[f_k]};
      end
      always @(posedge clk) begin
        if (rst || !req[f_who%N] || (used && grant[f_who%N])) f_waited <= 6'd0;
        else if (used) f_waited <= f_waited + 6'd1;
      end
      always @(*) begin
        if (f_rst_seen) begin
          assert(f_waited <= N - 1);
          assert(f_waited + f_n_above <= N - 1);
        end
      end
      always @(*) if (f_rst_seen) cover(f_waited == N - 1);
      /* verilator lint_on WIDTH */
`endif
    end
  endgenerate
endmodule
`default_nettype wire
