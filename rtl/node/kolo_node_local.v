`default_nettype none
// kolo_node_local - the router's local port of a node without an NI
// (kolo_node NI_EN = 0, kolo_chip HOST_IF = 1: a board with no PCIe). Only
// the service block's MGMT packets use the port; it never hangs and loses
// nothing silently.
//
// Receive: the NI's own ejection buffers (kolo_ni_ej, EJ_DEPTH flits per VC:
// the router's EJECT_CREDITS; credits go back as the NI returns them) and
// its MGMT split (kolo_ni_mgmt, enabled): a good vnet-1 packet with op MGMT
// goes whole to the service block's mailbox (mgmt_rx_*, taken at full rate
// there). Every other packet, on either virtual network, whole or short
// (a bad verdict), is drained at once, flit by flit, and counted in drops
// (one per packet head; 32 bits, saturating; the service block's
// RTR_LOCAL_DROPS). So the router's local output never stalls behind an
// NI that is not there.
// Send: the service block's MGMT packets (mgmt_tx_*) through the NI's
// injector (kolo_ni_inj, INJ_CREDITS per VC: the router's local VC_DEPTH) on
// vnet 1, class 1 (adaptive) unless the header asks for ordered delivery;
// nothing else is ever injected (the request source is tied off).
// Handshakes: valid/ready on mgmt_*; the router's credit protocol on inj_*
// and ej_*. Latency: as kolo_ni (one cycle through the injector's output
// register; an ejected packet is offered once it is whole in its buffer,
// then one cycle through the skid stage).
// Reset: rst synchronous, active high: buffers empty, all credits back,
// drops 0.
module kolo_node_local #(
    parameter INJ_CREDITS = 80,   // the router's LOCAL_DEPTH
    parameter EJ_DEPTH    = 64,   // the router's EJECT_CREDITS
    parameter BUG         = 0     // tests only, a planted bug: 1 vnet 0 not drained, 2 vnet-1 drops not counted
) (
    input  wire          clk,
    input  wire          rst,
    // router local port
    output wire          inj_valid,
    output wire [67:0]   inj_flit,
    input  wire          inj_credit_valid,
    input  wire [1:0]    inj_credit_vc,
    input  wire          ej_valid,
    input  wire [67:0]   ej_flit,
    output wire          ej_credit_valid,
    output wire [1:0]    ej_credit_vc,
    // the service block's mailbox
    input  wire          mgmt_tx_valid,
    input  wire [65:0]   mgmt_tx_flit,
    output wire          mgmt_tx_ready,
    output wire          mgmt_rx_valid,
    output wire [65:0]   mgmt_rx_flit,
    input  wire          mgmt_rx_ready,
    // packets drained (not MGMT, or not whole)
    output reg  [31:0]   drops
);
  // ---- ejection: whole packets per virtual network --------------------------------
  wire [1:0]      pk_valid, pk_ok, pk_ready;
  wire [2*66-1:0] pk_flit;
  /* verilator lint_off PINCONNECTEMPTY */  // the ejector's head pulses: counted below instead
  kolo_ni_ej #(
      .DEPTH(EJ_DEPTH)
  ) u_ej (
      .clk(clk), .rst(rst),
      .ej_valid(ej_valid), .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid), .ej_credit_vc(ej_credit_vc),
      .pk_valid(pk_valid), .pk_flit(pk_flit), .pk_ok(pk_ok), .pk_ready(pk_ready),
      .stat_pkt()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // vnet 0 (requests: nobody serves them here): drained
  assign pk_ready[0] = BUG != 1;
  wire drop_req = pk_valid[0] && pk_ready[0] && pk_flit[65];

  // vnet 1: MGMT to the mailbox, the rest (responses nobody asked for, bad
  // packets) drained; the injector's vnet-1 source is the mailbox alone
  wire        mg_inj_valid, mg_inj_cls, mg_inj_ready, drop_rsp_head;
  wire [65:0] mg_inj_flit;
  /* verilator lint_off PINCONNECTEMPTY */  // the response side: drained here
  kolo_ni_mgmt u_mgmt (
      .clk(clk), .rst(rst), .en(1'b1),
      .pk_valid(pk_valid[1]), .pk_flit(pk_flit[66+:66]), .pk_ok(pk_ok[1]), .pk_ready(pk_ready[1]),
      .rsp_valid(), .rsp_flit(), .rsp_ok(), .rsp_ready(1'b1),
      .mgmt_rx_valid(mgmt_rx_valid), .mgmt_rx_flit(mgmt_rx_flit), .mgmt_rx_ready(mgmt_rx_ready),
      .tgt_valid(1'b0), .tgt_flit(66'd0), .tgt_cls(1'b0), .tgt_ready(),
      .mgmt_tx_valid(mgmt_tx_valid), .mgmt_tx_flit(mgmt_tx_flit), .mgmt_tx_ready(mgmt_tx_ready),
      .inj_valid(mg_inj_valid), .inj_flit(mg_inj_flit), .inj_cls(mg_inj_cls), .inj_ready(mg_inj_ready),
      .stat_rsp_head(drop_rsp_head), .stat_mgmt_tx()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  wire drop_rsp = drop_rsp_head && BUG != 2;

  always @(posedge clk) begin
    if (rst) drops <= 32'd0;
    else if (drop_req || drop_rsp) begin
      if (drops == 32'hFFFF_FFFF) drops <= drops;
      else if (drop_req && drop_rsp && drops != 32'hFFFF_FFFE) drops <= drops + 32'd2;
      else drops <= (drop_req && drop_rsp) ? 32'hFFFF_FFFF : drops + 32'd1;
    end
  end

  // ---- injection: the mailbox's packets only ----------------------------------------
  wire [1:0] src_ready;
  /* verilator lint_off PINCONNECTEMPTY */
  kolo_ni_inj #(
      .CREDITS(INJ_CREDITS)
  ) u_inj (
      .clk(clk), .rst(rst),
      .src_valid({mg_inj_valid, 1'b0}), .src_flit({mg_inj_flit, 66'd0}), .src_cls({mg_inj_cls, 1'b0}),
      .src_ready(src_ready),
      .inj_valid(inj_valid), .inj_flit(inj_flit),
      .inj_credit_valid(inj_credit_valid), .inj_credit_vc(inj_credit_vc),
      .stat_pkt()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign mg_inj_ready = src_ready[1];
  wire unused = &{1'b0, src_ready[0], pk_ok[0], pk_flit[64:0]};
endmodule
`default_nettype wire
