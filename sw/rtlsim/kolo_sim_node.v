`default_nettype none
// kolo_sim_node - one node of kolo-sim --ni=rtl (sw/rtlsim/kolo_sim_cluster): the
// PCIe endpoint core kolo_pcie_ep and the NI engine kolo_ni joined at the
// endpoint's user side; TLP ports, PCIe configuration, router local port and
// counters are its ports. A Verilator hier_block: its C++ is compiled once,
// not once per node (node id and torus size are inputs, not parameters).
module kolo_sim_node (
    input  wire         clk,
    input  wire         rst,
    input  wire [11:0]  node_id,
    input  wire [11:0]  dim_m1,
    input  wire         rx_tlp_valid,
    output wire         rx_tlp_ready,
    input  wire [127:0] rx_tlp_hdr,
    input  wire [255:0] rx_tlp_data,
    input  wire         rx_tlp_sop,
    input  wire         rx_tlp_eop,
    input  wire [7:0]   rx_tlp_dw_en,
    output wire         tx_tlp_valid,
    input  wire         tx_tlp_ready,
    output wire [127:0] tx_tlp_hdr,
    output wire [255:0] tx_tlp_data,
    output wire         tx_tlp_sop,
    output wire         tx_tlp_eop,
    output wire [7:0]   tx_tlp_dw_en,
    input  wire [63:0]  cfg_bar0,
    input  wire [63:0]  cfg_bar2,
    input  wire [15:0]  cfg_req_id,
    input  wire [2:0]   cfg_max_payload,
    input  wire [2:0]   cfg_max_read_req,
    input  wire         cfg_bus_master,
    input  wire [63:0]  cfg_msi_addr,
    input  wire [15:0]  cfg_msi_data,
    input  wire         cfg_msi_en,
    output wire         inj_valid,
    output wire [67:0]  inj_flit,
    input  wire         inj_credit_valid,
    input  wire [1:0]   inj_credit_vc,
    input  wire         ej_valid,
    input  wire [67:0]  ej_flit,
    output wire         ej_credit_valid,
    output wire [1:0]   ej_credit_vc,
    output wire [383:0] ni_stats,
    output wire [79:0]  ep_stats,     // {bad_tlp, cpl_err, cpl_timeout, ca, ur}
    output wire [84:0]  ni_dbg,
    // MGMT packets of the node's service block ({head, tail, data}, valid/ready per flit):
    // the C++ service block model (sw/sim/svc.cpp) sends and receives them in band
    input  wire         mgmt_tx_valid,
    input  wire [65:0]  mgmt_tx_flit,
    output wire         mgmt_tx_ready,
    output wire         mgmt_rx_valid,
    output wire [65:0]  mgmt_rx_flit,
    input  wire         mgmt_rx_ready,
    output wire [4:0]   e2e_inc       // end-to-end counter pulses (kolo_ni stat_e2e_inc)
);
  /*verilator hier_block*/
  wire         mmio_wr_valid, mmio_wr_ready, mmio_rd_valid, mmio_rd_ready;
  wire [1:0]   mmio_wr_bar, mmio_rd_bar;
  wire [31:0]  mmio_wr_addr, mmio_rd_addr;
  wire [511:0] mmio_wr_data;
  wire [63:0]  mmio_wr_strb, mmio_rd_resp_data;
  wire [3:0]   mmio_rd_len;
  wire         mmio_rd_resp_valid, mmio_rd_resp_ready, mmio_rd_resp_err;
  wire         dma_rd_req_valid, dma_rd_req_ready, dma_rd_valid, dma_rd_ready;
  wire         dma_rd_last, dma_rd_err;
  wire [63:0]  dma_rd_req_addr, dma_wr_addr;
  wire [12:0]  dma_rd_req_len, dma_wr_len;
  wire [7:0]   dma_rd_req_id, dma_rd_id;
  wire [255:0] dma_rd_data, dma_wr_data;
  wire         dma_wr_valid, dma_wr_ready, dma_wr_last;
  wire         msi_valid, msi_ready;
  wire [4:0]   msi_vector;
  wire [15:0]  st_ur, st_ca, st_to, st_cerr, st_bad;

  assign ep_stats = {st_bad, st_cerr, st_to, st_ca, st_ur};

  /* verilator lint_off PINCONNECTEMPTY */
  kolo_pcie_ep u_ep (
      .clk(clk),
      .rst(rst),
      .rx_tlp_valid(rx_tlp_valid),
      .rx_tlp_ready(rx_tlp_ready),
      .rx_tlp_hdr(rx_tlp_hdr),
      .rx_tlp_data(rx_tlp_data),
      .rx_tlp_sop(rx_tlp_sop),
      .rx_tlp_eop(rx_tlp_eop),
      .rx_tlp_dw_en(rx_tlp_dw_en),
      // the root-complex model sends completions on the one receive stream
      .rx_cpl_valid(1'b0),
      .rx_cpl_ready(),
      .rx_cpl_hdr(128'd0),
      .rx_cpl_data(256'd0),
      .rx_cpl_sop(1'b0),
      .rx_cpl_eop(1'b0),
      .rx_cpl_dw_en(8'd0),
      .np_credit(),
      .tx_tlp_valid(tx_tlp_valid),
      .tx_tlp_ready(tx_tlp_ready),
      .tx_tlp_hdr(tx_tlp_hdr),
      .tx_tlp_data(tx_tlp_data),
      .tx_tlp_sop(tx_tlp_sop),
      .tx_tlp_eop(tx_tlp_eop),
      .tx_tlp_dw_en(tx_tlp_dw_en),
      .mmio_wr_valid(mmio_wr_valid),
      .mmio_wr_ready(mmio_wr_ready),
      .mmio_wr_bar(mmio_wr_bar),
      .mmio_wr_addr(mmio_wr_addr),
      .mmio_wr_data(mmio_wr_data),
      .mmio_wr_strb(mmio_wr_strb),
      .mmio_rd_valid(mmio_rd_valid),
      .mmio_rd_ready(mmio_rd_ready),
      .mmio_rd_bar(mmio_rd_bar),
      .mmio_rd_addr(mmio_rd_addr),
      .mmio_rd_len(mmio_rd_len),
      .mmio_rd_resp_valid(mmio_rd_resp_valid),
      .mmio_rd_resp_ready(mmio_rd_resp_ready),
      .mmio_rd_resp_data(mmio_rd_resp_data),
      .mmio_rd_resp_err(mmio_rd_resp_err),
      .dma_rd_req_valid(dma_rd_req_valid),
      .dma_rd_req_ready(dma_rd_req_ready),
      .dma_rd_req_addr(dma_rd_req_addr),
      .dma_rd_req_len(dma_rd_req_len),
      .dma_rd_req_id(dma_rd_req_id),
      .dma_rd_valid(dma_rd_valid),
      .dma_rd_ready(dma_rd_ready),
      .dma_rd_data(dma_rd_data),
      .dma_rd_id(dma_rd_id),
      .dma_rd_last(dma_rd_last),
      .dma_rd_err(dma_rd_err),
      .dma_wr_valid(dma_wr_valid),
      .dma_wr_ready(dma_wr_ready),
      .dma_wr_addr(dma_wr_addr),
      .dma_wr_len(dma_wr_len),
      .dma_wr_data(dma_wr_data),
      .dma_wr_last(dma_wr_last),
      .msi_valid(msi_valid),
      .msi_ready(msi_ready),
      .msi_vector(msi_vector),
      .cfg_bar0(cfg_bar0),
      .cfg_bar2(cfg_bar2),
      .cfg_req_id(cfg_req_id),
      .cfg_max_payload(cfg_max_payload),
      .cfg_max_read_req(cfg_max_read_req),
      .cfg_bus_master(cfg_bus_master),
      .cfg_msi_addr(cfg_msi_addr),
      .cfg_msi_data(cfg_msi_data),
      .cfg_msi_en(cfg_msi_en),
      // the root-complex model has no completion buffer to overrun: the largest space
      .cfg_cpl_hdr(12'd4095),
      .cfg_cpl_data(16'd65535),
      .stat_ur(st_ur),
      .stat_ca(st_ca),
      .stat_cpl_timeout(st_to),
      .stat_cpl_err(st_cerr),
      .stat_bad_tlp(st_bad),
      .stat_tags_used()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // svc_en = 1 for MGMT only: SVC_ROUTE 0 keeps every lookup on the BAR0 route table, which
  // kolo-sim writes at start-up and again on every table switch of the service block model
  // (a changed entry is the NI's end-to-end table-switch event, docs/ni.md 10).
  kolo_ni #(
      .SVC_ROUTE(0)
  ) u_ni (
      .clk(clk),
      .rst(rst),
      .svc_node_id(node_id),
      .svc_dim_m1(dim_m1),
      // MGMT to and from the C++ service block model; routes from the BAR0-written table
      .svc_en(1'b1),
      /* verilator lint_off PINCONNECTEMPTY */
      .svc_rt_lk_valid(),
      .svc_rt_lk_id(),
      .stat_unreachable(),
      /* verilator lint_on PINCONNECTEMPTY */
      .svc_rt_lk_entry(32'd0),
      .svc_rt_switch(1'b0),
      .mgmt_tx_valid(mgmt_tx_valid),
      .mgmt_tx_flit(mgmt_tx_flit),
      .mgmt_tx_ready(mgmt_tx_ready),
      .mgmt_rx_valid(mgmt_rx_valid),
      .mgmt_rx_flit(mgmt_rx_flit),
      .mgmt_rx_ready(mgmt_rx_ready),
      .stat_e2e_inc(e2e_inc),
      .mmio_wr_valid(mmio_wr_valid),
      .mmio_wr_ready(mmio_wr_ready),
      .mmio_wr_bar(mmio_wr_bar),
      .mmio_wr_addr(mmio_wr_addr),
      .mmio_wr_data(mmio_wr_data),
      .mmio_wr_strb(mmio_wr_strb),
      .mmio_rd_valid(mmio_rd_valid),
      .mmio_rd_ready(mmio_rd_ready),
      .mmio_rd_bar(mmio_rd_bar),
      .mmio_rd_addr(mmio_rd_addr),
      .mmio_rd_len(mmio_rd_len),
      .mmio_rd_resp_valid(mmio_rd_resp_valid),
      .mmio_rd_resp_ready(mmio_rd_resp_ready),
      .mmio_rd_resp_data(mmio_rd_resp_data),
      .mmio_rd_resp_err(mmio_rd_resp_err),
      .dma_rd_req_valid(dma_rd_req_valid),
      .dma_rd_req_ready(dma_rd_req_ready),
      .dma_rd_req_addr(dma_rd_req_addr),
      .dma_rd_req_len(dma_rd_req_len),
      .dma_rd_req_id(dma_rd_req_id),
      .dma_rd_valid(dma_rd_valid),
      .dma_rd_ready(dma_rd_ready),
      .dma_rd_data(dma_rd_data),
      .dma_rd_id(dma_rd_id),
      .dma_rd_last(dma_rd_last),
      .dma_rd_err(dma_rd_err),
      .dma_wr_valid(dma_wr_valid),
      .dma_wr_ready(dma_wr_ready),
      .dma_wr_addr(dma_wr_addr),
      .dma_wr_len(dma_wr_len),
      .dma_wr_data(dma_wr_data),
      .dma_wr_last(dma_wr_last),
      .msi_valid(msi_valid),
      .msi_ready(msi_ready),
      .msi_vector(msi_vector),
      .inj_valid(inj_valid),
      .inj_flit(inj_flit),
      .inj_credit_valid(inj_credit_valid),
      .inj_credit_vc(inj_credit_vc),
      .ej_valid(ej_valid),
      .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid),
      .ej_credit_vc(ej_credit_vc),
      .stat_counters(ni_stats),
      .dbg_state(ni_dbg)
  );
endmodule
`default_nettype wire
