`default_nettype none
// tb_pcie_shim_us_top - Verilator top of tb/unit/pcie_shim (us build):
// kolo_pcie_shim_us in front of kolo_pcie_ep. The harness plays the
// UltraScale block on the CQ/CC/RQ/RC ports and the NI on the core's user side.
module tb_pcie_shim_us_top #(
    parameter CPL_TIMEOUT = 8000,
    parameter TAGS = 32,
    parameter BUG_NO_SEQ_THROTTLE = 0   // the planted bug of test-unit-pcie-shim-bites
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         m_axis_cq_tvalid,
    output wire [21:0]  m_axis_cq_tready,
    input  wire [255:0] m_axis_cq_tdata,
    input  wire [84:0]  m_axis_cq_tuser,
    input  wire         m_axis_cq_tlast,
    input  wire [7:0]   m_axis_cq_tkeep,
    output wire         pcie_cq_np_req,
    input  wire         m_axis_rc_tvalid,
    output wire [21:0]  m_axis_rc_tready,
    input  wire [255:0] m_axis_rc_tdata,
    input  wire [74:0]  m_axis_rc_tuser,
    input  wire         m_axis_rc_tlast,
    input  wire [7:0]   m_axis_rc_tkeep,
    output wire         s_axis_cc_tvalid,
    input  wire [3:0]   s_axis_cc_tready,
    output wire [255:0] s_axis_cc_tdata,
    output wire [32:0]  s_axis_cc_tuser,
    output wire         s_axis_cc_tlast,
    output wire [7:0]   s_axis_cc_tkeep,
    output wire         s_axis_rq_tvalid,
    input  wire [3:0]   s_axis_rq_tready,
    output wire [255:0] s_axis_rq_tdata,
    output wire [59:0]  s_axis_rq_tuser,
    output wire         s_axis_rq_tlast,
    output wire [7:0]   s_axis_rq_tkeep,
    input  wire [3:0]   pcie_rq_seq_num,
    input  wire         pcie_rq_seq_num_vld,
    input  wire [2:0]   cfg_max_payload,
    input  wire [2:0]   cfg_max_read_req,
    input  wire [15:0]  cfg_function_status,
    input  wire [1:0]   cfg_interrupt_msi_enable,
    output wire [31:0]  cfg_interrupt_msi_int,
    input  wire         cfg_interrupt_msi_sent,
    input  wire         cfg_interrupt_msi_fail,
    // kolo_pcie_ep user side
    output wire         mmio_wr_valid,
    input  wire         mmio_wr_ready,
    output wire [1:0]   mmio_wr_bar,
    output wire [31:0]  mmio_wr_addr,
    output wire [511:0] mmio_wr_data,
    output wire [63:0]  mmio_wr_strb,
    output wire         mmio_rd_valid,
    input  wire         mmio_rd_ready,
    output wire [1:0]   mmio_rd_bar,
    output wire [31:0]  mmio_rd_addr,
    output wire [3:0]   mmio_rd_len,
    input  wire         mmio_rd_resp_valid,
    output wire         mmio_rd_resp_ready,
    input  wire [63:0]  mmio_rd_resp_data,
    input  wire         mmio_rd_resp_err,
    input  wire         dma_rd_req_valid,
    output wire         dma_rd_req_ready,
    input  wire [63:0]  dma_rd_req_addr,
    input  wire [12:0]  dma_rd_req_len,
    input  wire [7:0]   dma_rd_req_id,
    output wire         dma_rd_valid,
    input  wire         dma_rd_ready,
    output wire [255:0] dma_rd_data,
    output wire [7:0]   dma_rd_id,
    output wire         dma_rd_last,
    output wire         dma_rd_err,
    input  wire         dma_wr_valid,
    output wire         dma_wr_ready,
    input  wire [63:0]  dma_wr_addr,
    input  wire [12:0]  dma_wr_len,
    input  wire [255:0] dma_wr_data,
    input  wire         dma_wr_last,
    input  wire         msi_valid,
    output wire         msi_ready,
    input  wire [4:0]   msi_vector,
    output wire [15:0]  stat_ur,
    output wire [15:0]  stat_ca,
    output wire [15:0]  stat_cpl_timeout,
    output wire [15:0]  stat_cpl_err,
    output wire [15:0]  stat_bad_tlp,
    output wire [8:0]   stat_tags_used
);
  wire         rx_valid, rx_ready, rx_sop, rx_eop, tx_valid, tx_ready, tx_sop, tx_eop;
  wire [127:0] rx_hdr, tx_hdr;
  wire [255:0] rx_data, tx_data;
  wire [7:0]   rx_dw_en, tx_dw_en;
  wire [63:0]  c_bar0, c_bar2, c_msi_addr;
  wire [15:0]  c_req_id, c_msi_data;
  wire [2:0]   c_mps, c_mrrs;
  wire         c_bm, c_msi_en;
  wire         rc_valid, rc_ready, rc_sop, rc_eop, np_credit;
  wire [127:0] rc_hdr;
  wire [255:0] rc_data;
  wire [7:0]   rc_dw_en;
  wire [11:0]  c_cpl_hdr;
  wire [15:0]  c_cpl_data;
  kolo_pcie_shim_us #(.BUG_NO_SEQ_THROTTLE(BUG_NO_SEQ_THROTTLE)) u_shim (
      .clk(clk), .rst(rst),
      .m_axis_cq_tvalid(m_axis_cq_tvalid), .m_axis_cq_tready(m_axis_cq_tready), .m_axis_cq_tdata(m_axis_cq_tdata),
      .m_axis_cq_tuser(m_axis_cq_tuser), .m_axis_cq_tlast(m_axis_cq_tlast), .m_axis_cq_tkeep(m_axis_cq_tkeep),
      .pcie_cq_np_req(pcie_cq_np_req),
      .m_axis_rc_tvalid(m_axis_rc_tvalid), .m_axis_rc_tready(m_axis_rc_tready), .m_axis_rc_tdata(m_axis_rc_tdata),
      .m_axis_rc_tuser(m_axis_rc_tuser), .m_axis_rc_tlast(m_axis_rc_tlast), .m_axis_rc_tkeep(m_axis_rc_tkeep),
      .s_axis_cc_tvalid(s_axis_cc_tvalid), .s_axis_cc_tready(s_axis_cc_tready), .s_axis_cc_tdata(s_axis_cc_tdata),
      .s_axis_cc_tuser(s_axis_cc_tuser), .s_axis_cc_tlast(s_axis_cc_tlast), .s_axis_cc_tkeep(s_axis_cc_tkeep),
      .s_axis_rq_tvalid(s_axis_rq_tvalid), .s_axis_rq_tready(s_axis_rq_tready), .s_axis_rq_tdata(s_axis_rq_tdata),
      .s_axis_rq_tuser(s_axis_rq_tuser), .s_axis_rq_tlast(s_axis_rq_tlast), .s_axis_rq_tkeep(s_axis_rq_tkeep),
      .pcie_rq_seq_num(pcie_rq_seq_num), .pcie_rq_seq_num_vld(pcie_rq_seq_num_vld),
      .cfg_max_payload(cfg_max_payload), .cfg_max_read_req(cfg_max_read_req),
      .cfg_function_status(cfg_function_status), .cfg_interrupt_msi_enable(cfg_interrupt_msi_enable),
      .cfg_interrupt_msi_int(cfg_interrupt_msi_int), .cfg_interrupt_msi_sent(cfg_interrupt_msi_sent),
      .cfg_interrupt_msi_fail(cfg_interrupt_msi_fail),
      .ep_rx_tlp_valid(rx_valid), .ep_rx_tlp_ready(rx_ready), .ep_rx_tlp_hdr(rx_hdr),
      .ep_rx_tlp_data(rx_data), .ep_rx_tlp_sop(rx_sop), .ep_rx_tlp_eop(rx_eop), .ep_rx_tlp_dw_en(rx_dw_en),
      .ep_rx_cpl_valid(rc_valid), .ep_rx_cpl_ready(rc_ready), .ep_rx_cpl_hdr(rc_hdr),
      .ep_rx_cpl_data(rc_data), .ep_rx_cpl_sop(rc_sop), .ep_rx_cpl_eop(rc_eop), .ep_rx_cpl_dw_en(rc_dw_en),
      .ep_np_credit(np_credit),
      .ep_tx_tlp_valid(tx_valid), .ep_tx_tlp_ready(tx_ready), .ep_tx_tlp_hdr(tx_hdr),
      .ep_tx_tlp_data(tx_data), .ep_tx_tlp_sop(tx_sop), .ep_tx_tlp_eop(tx_eop), .ep_tx_tlp_dw_en(tx_dw_en),
      .ep_cfg_bar0(c_bar0), .ep_cfg_bar2(c_bar2), .ep_cfg_req_id(c_req_id), .ep_cfg_max_payload(c_mps),
      .ep_cfg_max_read_req(c_mrrs), .ep_cfg_bus_master(c_bm), .ep_cfg_msi_addr(c_msi_addr),
      .ep_cfg_msi_data(c_msi_data), .ep_cfg_msi_en(c_msi_en),
      .ep_cfg_cpl_hdr(c_cpl_hdr), .ep_cfg_cpl_data(c_cpl_data)
  );
  kolo_pcie_ep #(.CPL_TIMEOUT(CPL_TIMEOUT), .TAGS(TAGS)) u_ep (
      .clk(clk), .rst(rst),
      .rx_tlp_valid(rx_valid), .rx_tlp_ready(rx_ready), .rx_tlp_hdr(rx_hdr), .rx_tlp_data(rx_data),
      .rx_tlp_sop(rx_sop), .rx_tlp_eop(rx_eop), .rx_tlp_dw_en(rx_dw_en),
      .rx_cpl_valid(rc_valid), .rx_cpl_ready(rc_ready), .rx_cpl_hdr(rc_hdr), .rx_cpl_data(rc_data),
      .rx_cpl_sop(rc_sop), .rx_cpl_eop(rc_eop), .rx_cpl_dw_en(rc_dw_en), .np_credit(np_credit),
      .tx_tlp_valid(tx_valid), .tx_tlp_ready(tx_ready), .tx_tlp_hdr(tx_hdr), .tx_tlp_data(tx_data),
      .tx_tlp_sop(tx_sop), .tx_tlp_eop(tx_eop), .tx_tlp_dw_en(tx_dw_en),
      .mmio_wr_valid(mmio_wr_valid), .mmio_wr_ready(mmio_wr_ready), .mmio_wr_bar(mmio_wr_bar),
      .mmio_wr_addr(mmio_wr_addr), .mmio_wr_data(mmio_wr_data), .mmio_wr_strb(mmio_wr_strb),
      .mmio_rd_valid(mmio_rd_valid), .mmio_rd_ready(mmio_rd_ready), .mmio_rd_bar(mmio_rd_bar),
      .mmio_rd_addr(mmio_rd_addr), .mmio_rd_len(mmio_rd_len),
      .mmio_rd_resp_valid(mmio_rd_resp_valid), .mmio_rd_resp_ready(mmio_rd_resp_ready),
      .mmio_rd_resp_data(mmio_rd_resp_data), .mmio_rd_resp_err(mmio_rd_resp_err),
      .dma_rd_req_valid(dma_rd_req_valid), .dma_rd_req_ready(dma_rd_req_ready),
      .dma_rd_req_addr(dma_rd_req_addr), .dma_rd_req_len(dma_rd_req_len), .dma_rd_req_id(dma_rd_req_id),
      .dma_rd_valid(dma_rd_valid), .dma_rd_ready(dma_rd_ready), .dma_rd_data(dma_rd_data),
      .dma_rd_id(dma_rd_id), .dma_rd_last(dma_rd_last), .dma_rd_err(dma_rd_err),
      .dma_wr_valid(dma_wr_valid), .dma_wr_ready(dma_wr_ready), .dma_wr_addr(dma_wr_addr),
      .dma_wr_len(dma_wr_len), .dma_wr_data(dma_wr_data), .dma_wr_last(dma_wr_last),
      .msi_valid(msi_valid), .msi_ready(msi_ready), .msi_vector(msi_vector),
      .cfg_bar0(c_bar0), .cfg_bar2(c_bar2), .cfg_req_id(c_req_id), .cfg_max_payload(c_mps),
      .cfg_max_read_req(c_mrrs), .cfg_bus_master(c_bm), .cfg_msi_addr(c_msi_addr),
      .cfg_msi_data(c_msi_data), .cfg_msi_en(c_msi_en), .cfg_cpl_hdr(c_cpl_hdr), .cfg_cpl_data(c_cpl_data),
      .stat_ur(stat_ur), .stat_ca(stat_ca), .stat_cpl_timeout(stat_cpl_timeout),
      .stat_cpl_err(stat_cpl_err), .stat_bad_tlp(stat_bad_tlp), .stat_tags_used(stat_tags_used)
  );
endmodule
`default_nettype wire
