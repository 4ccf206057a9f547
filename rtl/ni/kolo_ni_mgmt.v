`default_nettype none
// kolo_ni_mgmt - the service block's MGMT packets at the NI's local port
// (docs/svc.md, docs/ni.md): MGMT travels in band on the response virtual
// network (vnet 1), beside the target side's responses.
//
// Receive: the ejected vnet-1 packet stream (pk_*, from kolo_ni_ej) is split
// by its head flit: a good packet (pk_ok) with op MGMT goes whole to mgmt_rx_*,
// every other one to the response side (rsp_*). With en = 0 (no service
// block: a strap) everything goes to the response side, which drops and
// counts MGMT packets as bad. The choice is made when the
// head is taken and kept until the tail. The service block takes MGMT flits
// at full rate (it drops what it cannot keep), so responses never wait long.
// Send: the target side's responses (tgt_*) and the service block's MGMT
// packets (mgmt_tx_*) share the injector's vnet-1 source (inj_*). Between
// packets the two alternate round robin; a packet is never interleaved with
// another (the injector requires that). The VC class of an MGMT packet is 1
// (adaptive) unless its header asks for ordered delivery.
// Streams are {head, tail, data[63:0]} with valid/ready per flit; pk_ok and
// the class travel with the head.
module kolo_ni_mgmt (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    // ejected vnet-1 packets (kolo_ni_ej)
    input  wire        pk_valid,
    input  wire [65:0] pk_flit,
    input  wire        pk_ok,
    output wire        pk_ready,
    // to the response side (kolo_ni_rsp)
    output wire        rsp_valid,
    output wire [65:0] rsp_flit,
    output wire        rsp_ok,
    input  wire        rsp_ready,
    // to the service block's mailbox
    output wire        mgmt_rx_valid,
    output wire [65:0] mgmt_rx_flit,
    input  wire        mgmt_rx_ready,
    // responses from the target side (kolo_ni_tgt)
    input  wire        tgt_valid,
    input  wire [65:0] tgt_flit,
    input  wire        tgt_cls,
    output wire        tgt_ready,
    // from the service block's mailbox
    input  wire        mgmt_tx_valid,
    input  wire [65:0] mgmt_tx_flit,
    output wire        mgmt_tx_ready,
    // to the injector's vnet-1 source (kolo_ni_inj)
    output wire        inj_valid,
    output wire [65:0] inj_flit,
    output wire        inj_cls,
    input  wire        inj_ready,
    output wire        stat_rsp_head, // a packet head went to the response side
    output wire        stat_mgmt_tx   // an MGMT packet head went to the injector
);
  `include "kolo_defs.vh"
  `include "kolo_ni_regs.vh"
  localparam [3:0] OP_MGMT = `KOLO_OP_MGMT;

  // ---- receive split ------------------------------------------------------------
  reg rx_in_pkt;   // between a taken head and its tail
  reg rx_to_mgmt;  // where the current packet goes
  wire rx_head = pk_flit[65];
  wire rx_is_mgmt = en && pk_ok && pk_flit[KOLO_H0_OP_LO+:4] == OP_MGMT;
  wire rx_sel = rx_in_pkt ? rx_to_mgmt : (rx_head && rx_is_mgmt);
  assign mgmt_rx_valid = pk_valid && rx_sel;
  assign rsp_valid = pk_valid && !rx_sel;
  assign mgmt_rx_flit = pk_flit;
  assign rsp_flit = pk_flit;
  assign rsp_ok = pk_ok;
  assign pk_ready = rx_sel ? mgmt_rx_ready : rsp_ready;
  wire rx_take = pk_valid && pk_ready;
  assign stat_rsp_head = rx_take && !rx_in_pkt && !rx_sel;

  always @(posedge clk) begin
    if (rst) begin
      rx_in_pkt <= 1'b0;
      rx_to_mgmt <= 1'b0;
    end else if (rx_take) begin
      rx_in_pkt <= !pk_flit[64];
      if (!rx_in_pkt) rx_to_mgmt <= rx_sel;
    end
  end

  // ---- send merge -----------------------------------------------------------------
  reg tx_in_pkt;   // between a taken head and its tail
  reg tx_cur;      // 1: the MGMT packet owns the injector
  reg tx_last;     // who started the last packet (round robin)
  reg tx_cls_q;    // class of the current MGMT packet
  wire tgt_head = tgt_valid && tgt_flit[65];
  wire mgmt_head = mgmt_tx_valid && mgmt_tx_flit[65];
  // between packets: the other one first when both have a head waiting
  wire pick_mgmt = mgmt_head && (!tgt_head || !tx_last);
  wire tx_sel = tx_in_pkt ? tx_cur : pick_mgmt;
  wire mgmt_cls = !mgmt_tx_flit[KOLO_H0_ORDERED];
  assign inj_valid = tx_sel ? mgmt_tx_valid : tgt_valid;
  assign inj_flit = tx_sel ? mgmt_tx_flit : tgt_flit;
  assign inj_cls = tx_sel ? (tx_in_pkt ? tx_cls_q : mgmt_cls) : tgt_cls;
  assign tgt_ready = inj_ready && !tx_sel;
  assign mgmt_tx_ready = inj_ready && tx_sel;
  wire tx_take = inj_valid && inj_ready;
  assign stat_mgmt_tx = tx_take && !tx_in_pkt && tx_sel;

  always @(posedge clk) begin
    if (rst) begin
      tx_in_pkt <= 1'b0;
      tx_cur <= 1'b0;
      tx_last <= 1'b0;
      tx_cls_q <= 1'b1;
    end else if (tx_take) begin
      tx_in_pkt <= !inj_flit[64];
      if (!tx_in_pkt) begin
        tx_cur <= tx_sel;
        tx_last <= tx_sel;
        tx_cls_q <= mgmt_cls;
      end
    end
  end

`ifdef FORMAL
  // a packet's flits come from one source: the owner never changes inside one
  // (previous values in explicit registers, not $past: Verilator 5.006 can
  // sample $past of a register after its update)
  reg f_live_q = 1'b0, f_in_pkt_q = 1'b0;
  reg [$bits(tx_cur)-1:0] f_cur_q;
  always @(posedge clk) begin
    f_live_q <= !rst;
    f_in_pkt_q <= tx_in_pkt;
    f_cur_q <= tx_cur;
  end
  always @(posedge clk)
    if (!rst && f_live_q && f_in_pkt_q && tx_in_pkt) assert (tx_cur == f_cur_q);
`endif
endmodule
`default_nettype wire
