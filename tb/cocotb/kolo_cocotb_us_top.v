`default_nettype none
// kolo_cocotb_us_top - the device of the cocotb PCIe tests (tb/cocotb,
// docs/testing.md): the UltraScale / UltraScale+ block's user-side ports
// (played by cocotbext-pcie's UltraScalePcieDevice / UltraScalePlusPcieDevice
// with its root complex), kolo_pcie_shim_us, kolo_pcie_ep and the NI engine
// kolo_ni, whose router local port goes to a 1x1x1 kolo_torus (a node that
// sends to itself). The core's DMA ports are shared (kolo_cocotb_dma_mux)
// between the NI and the test's own DMA agent (tb_rq_*, tb_rd_*, tb_wr_*:
// reads and writes of any size). Between the core and the NI every
// user-side stream passes a kolo_cocotb_gate, so the test sets seeded
// back-pressure there (thr_*: 255 = none).
// USP = 1: the UltraScale+ widths (CQ tuser 88, RQ tuser 62, pcie_cq_np_req
// 2 bits, 6-bit sequence numbers); the shim uses the UltraScale subset.
module kolo_cocotb_us_top #(
    parameter USP = 0,
    parameter CPL_HDR_CREDITS = 64,    // the block's completion buffer, for the shim
    parameter CPL_DATA_CREDITS = 992,
    parameter CQU = (USP != 0) ? 88 : 85,
    parameter RQU = (USP != 0) ? 62 : 60,
    parameter NPW = (USP != 0) ? 2 : 1,
    parameter SQW = (USP != 0) ? 6 : 4
) (
    input  wire          user_clk,
    input  wire          user_reset,
    input  wire          user_lnk_up,
    // completer request
    input  wire [255:0]  m_axis_cq_tdata,
    input  wire [CQU-1:0] m_axis_cq_tuser,
    input  wire          m_axis_cq_tlast,
    input  wire [7:0]    m_axis_cq_tkeep,
    input  wire          m_axis_cq_tvalid,
    output wire          m_axis_cq_tready,
    output wire [NPW-1:0] pcie_cq_np_req,
    input  wire [5:0]    pcie_cq_np_req_count,
    // requester completion
    input  wire [255:0]  m_axis_rc_tdata,
    input  wire [74:0]   m_axis_rc_tuser,
    input  wire          m_axis_rc_tlast,
    input  wire [7:0]    m_axis_rc_tkeep,
    input  wire          m_axis_rc_tvalid,
    output wire          m_axis_rc_tready,
    // completer completion
    output wire [255:0]  s_axis_cc_tdata,
    output wire [32:0]   s_axis_cc_tuser,
    output wire          s_axis_cc_tlast,
    output wire [7:0]    s_axis_cc_tkeep,
    output wire          s_axis_cc_tvalid,
    input  wire          s_axis_cc_tready,
    // requester request
    output wire [255:0]  s_axis_rq_tdata,
    output wire [RQU-1:0] s_axis_rq_tuser,
    output wire          s_axis_rq_tlast,
    output wire [7:0]    s_axis_rq_tkeep,
    output wire          s_axis_rq_tvalid,
    input  wire          s_axis_rq_tready,
    input  wire [SQW-1:0] pcie_rq_seq_num,
    input  wire          pcie_rq_seq_num_vld,
    // configuration and MSI
    input  wire [2:0]    cfg_max_payload,
    input  wire [2:0]    cfg_max_read_req,
    input  wire [15:0]   cfg_function_status,
    input  wire [3:0]    cfg_interrupt_msi_enable,
    output wire [31:0]   cfg_interrupt_msi_int,
    input  wire          cfg_interrupt_msi_sent,
    input  wire          cfg_interrupt_msi_fail,
    // test control: seed of the gates and their thresholds
    input  wire [15:0]   tb_seed,
    input  wire [7:0]    thr_mmio_wr,
    input  wire [7:0]    thr_mmio_rd,
    input  wire [7:0]    thr_rd_resp,
    input  wire [7:0]    thr_dma_rd_req,
    input  wire [7:0]    thr_dma_rd,
    input  wire [7:0]    thr_dma_wr,
    input  wire [7:0]    thr_msi,
    // the test's DMA agent
    input  wire          tb_rq_valid,
    output wire          tb_rq_ready,
    input  wire [63:0]   tb_rq_addr,
    input  wire [12:0]   tb_rq_len,
    input  wire [7:0]    tb_rq_id,
    output wire          tb_rd_valid,
    input  wire          tb_rd_ready,
    output wire [255:0]  tb_rd_data,
    output wire [7:0]    tb_rd_id,
    output wire          tb_rd_last,
    output wire          tb_rd_err,
    input  wire          tb_wr_valid,
    output wire          tb_wr_ready,
    input  wire [63:0]   tb_wr_addr,
    input  wire [12:0]   tb_wr_len,
    input  wire [255:0]  tb_wr_data,
    input  wire          tb_wr_last,
    // observation
    output wire [15:0]   stat_ur,
    output wire [15:0]   stat_ca,
    output wire [15:0]   stat_cpl_timeout,
    output wire [15:0]   stat_cpl_err,
    output wire [15:0]   stat_bad_tlp,
    output wire [8:0]    stat_tags_used,
    output wire [6*64-1:0] ni_counters
);
  wire clk = user_clk;
  wire rst = user_reset;

  // ---- shim <-> core ---------------------------------------------------------------------
  wire         rx_valid, rx_ready, rx_sop, rx_eop, tx_valid, tx_ready, tx_sop, tx_eop;
  wire [127:0] rx_hdr, tx_hdr;
  wire [255:0] rx_data, tx_data;
  wire [7:0]   rx_dw_en, tx_dw_en;
  wire         rc_valid, rc_ready, rc_sop, rc_eop, np_credit;
  wire [127:0] rc_hdr;
  wire [255:0] rc_data;
  wire [7:0]   rc_dw_en;
  wire [63:0]  c_bar0, c_bar2, c_msi_addr;
  wire [15:0]  c_req_id, c_msi_data;
  wire [2:0]   c_mps, c_mrrs;
  wire         c_bm, c_msi_en;
  wire [11:0]  c_cpl_hdr;
  wire [15:0]  c_cpl_data;
  wire [21:0]  cq_tready, rc_tready;
  assign m_axis_cq_tready = cq_tready[0];
  assign m_axis_rc_tready = rc_tready[0];
  wire np_req;
  assign pcie_cq_np_req = {{(NPW-1){1'b0}}, np_req};
  wire [59:0] rq_tuser;
  assign s_axis_rq_tuser = {{(RQU-60){1'b0}}, rq_tuser};

  kolo_pcie_shim_us #(.CPL_HDR_CREDITS(CPL_HDR_CREDITS), .CPL_DATA_CREDITS(CPL_DATA_CREDITS)) u_shim (
      .clk(clk), .rst(rst),
      .m_axis_cq_tvalid(m_axis_cq_tvalid), .m_axis_cq_tready(cq_tready), .m_axis_cq_tdata(m_axis_cq_tdata),
      .m_axis_cq_tuser(m_axis_cq_tuser[84:0]), .m_axis_cq_tlast(m_axis_cq_tlast), .m_axis_cq_tkeep(m_axis_cq_tkeep),
      .pcie_cq_np_req(np_req),
      .m_axis_rc_tvalid(m_axis_rc_tvalid), .m_axis_rc_tready(rc_tready), .m_axis_rc_tdata(m_axis_rc_tdata),
      .m_axis_rc_tuser(m_axis_rc_tuser), .m_axis_rc_tlast(m_axis_rc_tlast), .m_axis_rc_tkeep(m_axis_rc_tkeep),
      .s_axis_cc_tvalid(s_axis_cc_tvalid), .s_axis_cc_tready({4{s_axis_cc_tready}}), .s_axis_cc_tdata(s_axis_cc_tdata),
      .s_axis_cc_tuser(s_axis_cc_tuser), .s_axis_cc_tlast(s_axis_cc_tlast), .s_axis_cc_tkeep(s_axis_cc_tkeep),
      .s_axis_rq_tvalid(s_axis_rq_tvalid), .s_axis_rq_tready({4{s_axis_rq_tready}}), .s_axis_rq_tdata(s_axis_rq_tdata),
      .s_axis_rq_tuser(rq_tuser), .s_axis_rq_tlast(s_axis_rq_tlast), .s_axis_rq_tkeep(s_axis_rq_tkeep),
      .pcie_rq_seq_num(pcie_rq_seq_num[3:0]), .pcie_rq_seq_num_vld(pcie_rq_seq_num_vld),
      .cfg_max_payload(cfg_max_payload), .cfg_max_read_req(cfg_max_read_req),
      .cfg_function_status(cfg_function_status), .cfg_interrupt_msi_enable(cfg_interrupt_msi_enable[1:0]),
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

  // ---- core <-> NI, each stream through a gate --------------------------------------------
  wire         e_mw_valid, e_mw_ready, n_mw_valid, n_mw_ready;
  wire [1:0]   mw_bar;
  wire [31:0]  mw_addr;
  wire [511:0] mw_data;
  wire [63:0]  mw_strb;
  wire         e_mr_valid, e_mr_ready, n_mr_valid, n_mr_ready;
  wire [1:0]   mr_bar;
  wire [31:0]  mr_addr;
  wire [3:0]   mr_len;
  wire         e_rs_valid, e_rs_ready, n_rs_valid, n_rs_ready, rs_err;
  wire [63:0]  rs_data;
  wire         e_rq_valid, e_rq_ready, n_rq_valid, n_rq_ready;
  wire [63:0]  rq_addr;
  wire [12:0]  rq_len;
  wire [7:0]   rq_id;
  wire         e_rd_valid, e_rd_ready, n_rd_valid, n_rd_ready, rd_last, rd_err;
  wire [255:0] rd_data;
  wire [7:0]   rd_id;
  wire         e_wr_valid, e_wr_ready, n_wr_valid, n_wr_ready, wr_last;
  wire [63:0]  wr_addr;
  wire [12:0]  wr_len;
  wire [255:0] wr_data;
  wire         e_msi_valid, e_msi_ready, n_msi_valid, n_msi_ready;
  wire [4:0]   msi_vec;
  // the NI's DMA ports, before the mux
  wire         ni_rq_valid, ni_rq_ready, ni_rd_valid, ni_rd_ready, ni_wr_valid, ni_wr_ready, ni_wr_last;
  wire [63:0]  ni_rq_addr, ni_wr_addr;
  wire [12:0]  ni_rq_len, ni_wr_len;
  wire [7:0]   ni_rq_id;
  wire [255:0] ni_wr_data;
  kolo_cocotb_dma_mux u_mux (
      .clk(clk), .rst(rst),
      .m_rq_valid(n_rq_valid), .m_rq_ready(n_rq_ready), .m_rq_addr(rq_addr), .m_rq_len(rq_len), .m_rq_id(rq_id),
      .m_rd_valid(n_rd_valid), .m_rd_ready(n_rd_ready), .m_rd_last(rd_last),
      .m_wr_valid(n_wr_valid), .m_wr_ready(n_wr_ready), .m_wr_addr(wr_addr), .m_wr_len(wr_len),
      .m_wr_data(wr_data), .m_wr_last(wr_last),
      .s_rq_valid({tb_rq_valid, ni_rq_valid}), .s_rq_ready({tb_rq_ready, ni_rq_ready}),
      .s_rq_addr({tb_rq_addr, ni_rq_addr}), .s_rq_len({tb_rq_len, ni_rq_len}), .s_rq_id({tb_rq_id, ni_rq_id}),
      .s_rd_valid({tb_rd_valid, ni_rd_valid}), .s_rd_ready({tb_rd_ready, ni_rd_ready}),
      .s_wr_valid({tb_wr_valid, ni_wr_valid}), .s_wr_ready({tb_wr_ready, ni_wr_ready}),
      .s_wr_addr({tb_wr_addr, ni_wr_addr}), .s_wr_len({tb_wr_len, ni_wr_len}),
      .s_wr_data({tb_wr_data, ni_wr_data}), .s_wr_last({tb_wr_last, ni_wr_last})
  );
  assign tb_rd_data = rd_data;
  assign tb_rd_id = rd_id;
  assign tb_rd_last = rd_last;
  assign tb_rd_err = rd_err;

  kolo_cocotb_gate #(.SALT(16'h1001)) g_mw (.clk(clk), .rst(rst), .seed(tb_seed), .thr(thr_mmio_wr),
      .s_valid(e_mw_valid), .s_ready(e_mw_ready), .m_valid(n_mw_valid), .m_ready(n_mw_ready));
  kolo_cocotb_gate #(.SALT(16'h2002)) g_mr (.clk(clk), .rst(rst), .seed(tb_seed), .thr(thr_mmio_rd),
      .s_valid(e_mr_valid), .s_ready(e_mr_ready), .m_valid(n_mr_valid), .m_ready(n_mr_ready));
  kolo_cocotb_gate #(.SALT(16'h3003)) g_rs (.clk(clk), .rst(rst), .seed(tb_seed), .thr(thr_rd_resp),
      .s_valid(n_rs_valid), .s_ready(n_rs_ready), .m_valid(e_rs_valid), .m_ready(e_rs_ready));
  kolo_cocotb_gate #(.SALT(16'h4004)) g_rq (.clk(clk), .rst(rst), .seed(tb_seed), .thr(thr_dma_rd_req),
      .s_valid(n_rq_valid), .s_ready(n_rq_ready), .m_valid(e_rq_valid), .m_ready(e_rq_ready));
  kolo_cocotb_gate #(.SALT(16'h5005)) g_rd (.clk(clk), .rst(rst), .seed(tb_seed), .thr(thr_dma_rd),
      .s_valid(e_rd_valid), .s_ready(e_rd_ready), .m_valid(n_rd_valid), .m_ready(n_rd_ready));
  kolo_cocotb_gate #(.SALT(16'h6006)) g_wr (.clk(clk), .rst(rst), .seed(tb_seed), .thr(thr_dma_wr),
      .s_valid(n_wr_valid), .s_ready(n_wr_ready), .m_valid(e_wr_valid), .m_ready(e_wr_ready));
  kolo_cocotb_gate #(.SALT(16'h7007)) g_msi (.clk(clk), .rst(rst), .seed(tb_seed), .thr(thr_msi),
      .s_valid(n_msi_valid), .s_ready(n_msi_ready), .m_valid(e_msi_valid), .m_ready(e_msi_ready));

  kolo_pcie_ep u_ep (
      .clk(clk), .rst(rst),
      .rx_tlp_valid(rx_valid), .rx_tlp_ready(rx_ready), .rx_tlp_hdr(rx_hdr), .rx_tlp_data(rx_data),
      .rx_tlp_sop(rx_sop), .rx_tlp_eop(rx_eop), .rx_tlp_dw_en(rx_dw_en),
      .rx_cpl_valid(rc_valid), .rx_cpl_ready(rc_ready), .rx_cpl_hdr(rc_hdr), .rx_cpl_data(rc_data),
      .rx_cpl_sop(rc_sop), .rx_cpl_eop(rc_eop), .rx_cpl_dw_en(rc_dw_en), .np_credit(np_credit),
      .tx_tlp_valid(tx_valid), .tx_tlp_ready(tx_ready), .tx_tlp_hdr(tx_hdr), .tx_tlp_data(tx_data),
      .tx_tlp_sop(tx_sop), .tx_tlp_eop(tx_eop), .tx_tlp_dw_en(tx_dw_en),
      .mmio_wr_valid(e_mw_valid), .mmio_wr_ready(e_mw_ready), .mmio_wr_bar(mw_bar),
      .mmio_wr_addr(mw_addr), .mmio_wr_data(mw_data), .mmio_wr_strb(mw_strb),
      .mmio_rd_valid(e_mr_valid), .mmio_rd_ready(e_mr_ready), .mmio_rd_bar(mr_bar),
      .mmio_rd_addr(mr_addr), .mmio_rd_len(mr_len),
      .mmio_rd_resp_valid(e_rs_valid), .mmio_rd_resp_ready(e_rs_ready),
      .mmio_rd_resp_data(rs_data), .mmio_rd_resp_err(rs_err),
      .dma_rd_req_valid(e_rq_valid), .dma_rd_req_ready(e_rq_ready),
      .dma_rd_req_addr(rq_addr), .dma_rd_req_len(rq_len), .dma_rd_req_id(rq_id),
      .dma_rd_valid(e_rd_valid), .dma_rd_ready(e_rd_ready), .dma_rd_data(rd_data),
      .dma_rd_id(rd_id), .dma_rd_last(rd_last), .dma_rd_err(rd_err),
      .dma_wr_valid(e_wr_valid), .dma_wr_ready(e_wr_ready), .dma_wr_addr(wr_addr),
      .dma_wr_len(wr_len), .dma_wr_data(wr_data), .dma_wr_last(wr_last),
      .msi_valid(e_msi_valid), .msi_ready(e_msi_ready), .msi_vector(msi_vec),
      .cfg_bar0(c_bar0), .cfg_bar2(c_bar2), .cfg_req_id(c_req_id), .cfg_max_payload(c_mps),
      .cfg_max_read_req(c_mrrs), .cfg_bus_master(c_bm), .cfg_msi_addr(c_msi_addr),
      .cfg_msi_data(c_msi_data), .cfg_msi_en(c_msi_en), .cfg_cpl_hdr(c_cpl_hdr), .cfg_cpl_data(c_cpl_data),
      .stat_ur(stat_ur), .stat_ca(stat_ca), .stat_cpl_timeout(stat_cpl_timeout),
      .stat_cpl_err(stat_cpl_err), .stat_bad_tlp(stat_bad_tlp), .stat_tags_used(stat_tags_used)
  );

  // ---- the NI and a one-node torus --------------------------------------------------------
  wire         inj_valid, inj_credit_valid, ej_valid, ej_credit_valid;
  wire [67:0]  inj_flit, ej_flit;
  wire [1:0]   inj_credit_vc, ej_credit_vc;
  kolo_ni u_ni (
      .clk(clk), .rst(rst),
      .svc_node_id(12'd0), .svc_dim_m1(12'd0),
      .svc_en(1'b0),   // no service block: the routing table written at BAR0 0x4000
      .svc_rt_lk_valid(), .svc_rt_lk_id(), .svc_rt_lk_entry(32'd0), .svc_rt_switch(1'b0),
      .mgmt_tx_valid(1'b0), .mgmt_tx_flit(66'd0), .mgmt_tx_ready(),
      .mgmt_rx_valid(), .mgmt_rx_flit(), .mgmt_rx_ready(1'b1),
      .mmio_wr_valid(n_mw_valid), .mmio_wr_ready(n_mw_ready), .mmio_wr_bar(mw_bar),
      .mmio_wr_addr(mw_addr), .mmio_wr_data(mw_data), .mmio_wr_strb(mw_strb),
      .mmio_rd_valid(n_mr_valid), .mmio_rd_ready(n_mr_ready), .mmio_rd_bar(mr_bar),
      .mmio_rd_addr(mr_addr), .mmio_rd_len(mr_len),
      .mmio_rd_resp_valid(n_rs_valid), .mmio_rd_resp_ready(n_rs_ready),
      .mmio_rd_resp_data(rs_data), .mmio_rd_resp_err(rs_err),
      .dma_rd_req_valid(ni_rq_valid), .dma_rd_req_ready(ni_rq_ready),
      .dma_rd_req_addr(ni_rq_addr), .dma_rd_req_len(ni_rq_len), .dma_rd_req_id(ni_rq_id),
      .dma_rd_valid(ni_rd_valid), .dma_rd_ready(ni_rd_ready), .dma_rd_data(rd_data),
      .dma_rd_id(rd_id), .dma_rd_last(rd_last), .dma_rd_err(rd_err),
      .dma_wr_valid(ni_wr_valid), .dma_wr_ready(ni_wr_ready), .dma_wr_addr(ni_wr_addr),
      .dma_wr_len(ni_wr_len), .dma_wr_data(ni_wr_data), .dma_wr_last(ni_wr_last),
      .msi_valid(n_msi_valid), .msi_ready(n_msi_ready), .msi_vector(msi_vec),
      .inj_valid(inj_valid), .inj_flit(inj_flit), .inj_credit_valid(inj_credit_valid),
      .inj_credit_vc(inj_credit_vc), .ej_valid(ej_valid), .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid), .ej_credit_vc(ej_credit_vc),
      .stat_unreachable(), .stat_e2e_inc(), .stat_counters(ni_counters), .dbg_state()
  );
  kolo_torus #(.DIM_X(1), .DIM_Y(1), .DIM_Z(1)) u_torus (
      .clk(clk), .rst(rst),
      .inj_valid(inj_valid), .inj_flit(inj_flit), .inj_credit_valid(inj_credit_valid),
      .inj_credit_vc(inj_credit_vc), .ej_valid(ej_valid), .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid), .ej_credit_vc(ej_credit_vc),
      .mon_valid(), .mon_flit(), .mon_sunk(), .link_down(6'd0), .stat_fault_drops(), .stat_errors(),
      .stat_out_flits(), .dbg_vc_occ(), .dbg_vc_route(), .lane_clk(clk), .lane_rst(rst), .lane_tx(),
      .lane_rx(396'd0), .lane_slip(), .link_up(), .link_state(), .link_counters()
  );
  wire unused = &{1'b0, user_lnk_up, pcie_cq_np_req_count, m_axis_cq_tuser, pcie_rq_seq_num,
                  cfg_interrupt_msi_enable[3:2]};
endmodule
`default_nettype wire
