`default_nettype none
// kolo_ni_inj - injection side of the NI's router local port.
//
// Two packet sources: src 0 = requests (vnet 0, from the send side), src 1 =
// responses (vnet 1, from the target side). Each offers a packet as a flit
// stream {head, tail, data} with valid/ready and a VC class bit (0 escape /
// ordered, 1 adaptive) held for the whole packet. A packet starts only when
// the router's input buffer of its VC has room for all of it (len + 2 flits,
// from header flit 0); it is then forwarded flit by flit (the source may
// pause inside a packet; nothing else is injected meanwhile). Sources that
// can start alternate round robin, so neither virtual network waits on the
// other beyond one packet. The router takes flits only against credits:
// CREDITS per VC after reset (its VC_DEPTH), one back per inj_credit_valid.
// The output flit is registered.
module kolo_ni_inj #(
    parameter CREDITS = 80
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [1:0]    src_valid,
    input  wire [2*66-1:0] src_flit,   // {head, tail, data}
    input  wire [1:0]    src_cls,
    output wire [1:0]    src_ready,
    output reg           inj_valid,
    output reg  [67:0]   inj_flit,
    input  wire          inj_credit_valid,
    input  wire [1:0]    inj_credit_vc,
    output wire          stat_pkt      // a packet started this cycle
);
  `include "kolo_defs.vh"
  localparam CW = $clog2(CREDITS + 1);

  wire [4*CW-1:0] credits;
  reg busy;
  reg cur;
  wire [1:0] can;
  wire [1:0] grant;
  genvar s;
  generate
    for (s = 0; s < 2; s = s + 1) begin : g_src
      wire head = src_flit[s*66+65];
      wire [5:0] len = src_flit[s*66+KOLO_H0_LEN_LO+:6];
      wire [1:0] vc = {s[0], src_cls[s]};
      wire [CW-1:0] cr = credits[vc*CW+:CW];
      wire [7:0] need = {2'b00, len} + 8'd2;
      wire [7:0] cr8 = {{(8 - CW) {1'b0}}, cr};  // CREDITS <= 255 (router limit)
      assign can[s] = src_valid[s] && head && (cr8 >= need);
    end
  endgenerate

  kolo_arb_rr #(
      .N(2)
  ) u_arb (
      .clk(clk),
      .rst(rst),
      .req(busy ? 2'b00 : can),
      .advance(1'b1),
      .grant(grant)
  );

  wire sel = busy ? cur : grant[1];
  wire go = busy ? src_valid[sel] : (grant != 2'b00);
  wire [65:0] fl = src_flit[sel*66+:66];
  assign src_ready = {go && sel, go && !sel};
  assign stat_pkt = go && !busy;
  wire [1:0] go_vc = {sel, src_cls[sel]};

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      cur <= 1'b0;
      inj_valid <= 1'b0;
    end else begin
      inj_valid <= go;
      if (go) begin
        busy <= !fl[64];
        cur <= sel;
      end
    end
    inj_flit <= {go_vc, fl};
  end

  genvar v;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_cr
      /* verilator lint_off UNUSEDSIGNAL */
      wire avail, err;
      /* verilator lint_on UNUSEDSIGNAL */
      kolo_credit_counter #(
          .MAX(CREDITS),
          .INIT(CREDITS)
      ) u_cr (
          .clk(clk),
          .rst(rst),
          .inc(inj_credit_valid && inj_credit_vc == v[1:0]),
          .dec(go && go_vc == v[1:0]),
          .count(credits[v*CW+:CW]),
          .available(avail),
          .error(err)
      );
`ifndef SYNTHESIS
`include "kolo_assert.vh"
      // a credit returned beyond CREDITS, or a flit sent without one (sticky)
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!err);
`endif
    end
  endgenerate
endmodule
`default_nettype wire
