`default_nettype none
// kolo_reset_seq - reset sequencer of a group of clock domains that share
// clock-crossing cells (kolo_fifo_async, kolo_sync_pulse), so that no domain
// depends on another's reset overlapping it by chance.
//
// The group is clk's domain (the sequencer's own, whose clock must run:
// the core clock) and DOMAINS other domains (dom_clk[d]: lane clocks, the
// PCIe user clock, ...). A request - rst_req (the chip reset) or dom_req[d]
// (domain d cannot be used, e.g. its transceiver is not ready; asynchronous,
// any length) - starts a round in which every domain of the group is in
// reset; the round ends only when the request has gone and every domain
// has shown, through a token handshake, that its own reset was high at one
// of its clock edges after the request ended. Then the resets are released,
// each at an edge of its own clock (kolo_reset_sync), in any order.
//
// Why this is enough for the crossing cells: when the round ends, every
// domain's registers have taken their reset values at an edge, and a domain
// still in reset keeps them (it goes on sampling its reset); a domain that
// leaves reset earlier sees, across every crossing, the reset values of the
// others (the FIFO pointers of kolo_fifo_async: empty, nothing read), which
// is what they will start from. A new request at any time starts a new
// round; a domain whose clock never runs keeps the whole group in reset.
//
// Round (clk's domain): RUN -> (request) -> REQ: wait until the request has
// gone, HOLD cycles have passed and every domain echoes the current token
// (an echo at power-up may be stale; it is then taken as the old token) ->
// the token flips -> ACK: wait until every domain echoes the new token
// (domain d copies the token, through kolo_sync_bit, into its echo register
// at each of its edges - all in reset while the round lasts - and the echo
// comes back through kolo_sync_bit) -> RUN. A request during ACK goes back to REQ.
// Outputs: rst (clk's domain: asynchronous assertion with any request,
// synchronous release at the end of a round), dom_rst[d] (kolo_reset_sync of
// the group's state and dom_req[d] in dom_clk[d]'s domain), busy (a round is
// in progress; for status registers). Power-up: any register value is
// allowed, but rst_req must be high for a while (as long as it takes every
// domain's clock to run 4 edges) so that the first round happens.
// Latency of a round after the request ends, with every clock running: about
// HOLD + 2 * (2 dom_clk + 2 clk edges) of the slowest domain.
module kolo_reset_seq #(
    parameter DOMAINS = 2,   // >= 1
    parameter STAGES  = 3,   // kolo_reset_sync stages of every reset output
    parameter HOLD    = 8    // clk cycles a round lasts at least after its request, >= 1
) (
    input  wire               clk,
    input  wire               rst_req,
    output wire               rst,
    input  wire [DOMAINS-1:0] dom_clk,
    input  wire [DOMAINS-1:0] dom_req,
    output wire [DOMAINS-1:0] dom_rst,
    output wire               busy
);
  localparam integer HW = $clog2(HOLD + 1);
  localparam integer HOLD_I = HOLD;
  localparam [HW-1:0] HOLD_N = HOLD_I[HW-1:0];
  localparam [1:0] S_RUN = 2'd0, S_REQ = 2'd1, S_ACK = 2'd2;

  generate
    if (DOMAINS < 1 || HOLD < 1) begin : g_bad_params
      kolo_reset_seq_PARAMETER_ERROR_DOMAINS_and_HOLD_at_least_1 u_error ();
    end
  endgenerate

  // ---- the request, in clk's domain -------------------------------------------
  wire req_any = rst_req || (|dom_req);
  wire req;  // asserted at once, released synchronously
  kolo_reset_sync #(.STAGES(STAGES)) u_req_sync (
      .clk(clk),
      .rst_in(req_any),
      .rst_out(req)
  );

  // ---- round state, token, echoes ---------------------------------------------
  reg [1:0] state;   // any value at power-up; 3 acts as REQ
  reg [HW-1:0] hold_cnt;
  reg tok;           // no reset: only its changes matter
  wire [DOMAINS-1:0] echo_back;  // each domain's echo, in clk's domain
  wire all_old = (echo_back == {DOMAINS{tok}});
  wire in_round = (state != S_RUN);
  assign busy = in_round;

  always @(posedge clk) begin
    case (state)
      S_RUN: begin
        hold_cnt <= {HW{1'b0}};
        if (req) state <= S_REQ;
      end
      S_ACK: begin
        if (req) begin
          state <= S_REQ;
          hold_cnt <= {HW{1'b0}};
        end else if (all_old) begin
          state <= S_RUN;
        end
      end
      default: begin  // S_REQ (and the unused code)
        if (req) hold_cnt <= {HW{1'b0}};
        else if (hold_cnt != HOLD_N) hold_cnt <= hold_cnt + 1'b1;
        if (!req && hold_cnt == HOLD_N && all_old) begin
          state <= S_ACK;
          tok <= !tok;
        end else begin
          state <= S_REQ;
        end
      end
    endcase
  end

  // clk's domain is in reset from the request to the end of the round
  assign rst = req || in_round;

  genvar d;
  generate
    for (d = 0; d < DOMAINS; d = d + 1) begin : g_dom
      kolo_reset_sync #(.STAGES(STAGES)) u_rst_sync (
          .clk(dom_clk[d]),
          .rst_in(in_round || req_any),
          .rst_out(dom_rst[d])
      );
      wire tok_here;
      kolo_sync_bit #(.WIDTH(1), .STAGES(2)) u_tok_sync (
          .clk(dom_clk[d]),
          .in (tok),
          .out(tok_here)
      );
      reg echo;  // no reset: the token as this domain last saw it
      always @(posedge dom_clk[d]) echo <= tok_here;
      kolo_sync_bit #(.WIDTH(1), .STAGES(2)) u_echo_sync (
          .clk(clk),
          .in (echo),
          .out(echo_back[d])
      );
    end
  endgenerate

`ifdef FORMAL
`ifdef YOSYS
  // Multi-clock properties on $global_clock (Yosys clk2fflogic); Verilator and
  // Icarus, which also compile `FORMAL (VL_CHECKS), have no $global_clock.
  // Run with clk2fflogic: every clock and request is a free input sampled at
  // each global formal step (a flop takes its new value in the step that
  // sees its rising edge, from the values of the step before). The
  // synchroniser flops' power-up values are free (no initial values), so
  // stale echoes and tokens are explored.
  // f_done[d]: domain d has had a rising edge with dom_rst[d] high since the
  // last request (any_req) was seen high. At every end of a round (rst
  // falls), every domain must have one; while rst is high or a request is
  // high, every domain's reset input is high.
  reg f_clk_q = 1'b0;
  reg [DOMAINS-1:0] f_dclk_q = {DOMAINS{1'b0}};
  reg [DOMAINS-1:0] f_drst_q = {DOMAINS{1'b0}};
  reg [DOMAINS-1:0] f_done_q = {DOMAINS{1'b0}};
  reg f_rst_q = 1'b0;
  reg f_seen_q = 1'b0;
  wire f_seen = f_seen_q || rst_req;   // the power-up request has started
  wire [DOMAINS-1:0] f_edge_in_rst = dom_clk & ~f_dclk_q & f_drst_q;
  wire [DOMAINS-1:0] f_done = req_any ? {DOMAINS{1'b0}} : (f_done_q | f_edge_in_rst);
  always @($global_clock) begin
    f_clk_q  <= clk;
    f_dclk_q <= dom_clk;
    f_drst_q <= dom_rst;
    f_done_q <= f_done;
    f_rst_q  <= rst;
    f_seen_q <= f_seen;
  end
  always @(*) begin
    if (req_any) assert(rst && (&dom_rst));
    if (in_round) assert(&dom_rst);
    if (f_seen && f_rst_q && !rst) assert(&f_done);
    cover(f_seen && f_rst_q && !rst);
  end
`endif
`endif
endmodule
`default_nettype wire
