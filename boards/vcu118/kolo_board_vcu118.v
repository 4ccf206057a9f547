`default_nettype none
// kolo_board_vcu118 - kolo on the Xilinx VCU118 (XCVU9P-L2FLGA2104E): the chip
// (kolo_chip) with six network ports, one GTY lane each at 10.3125 Gb/s on
// the two QSFP28 cages (QSFP1 lanes 1..4: X+ X- Y+ Y-, QSFP2 lanes 1..2: Z+
// Z-; breakout cables to SFP+, or QSFP-to-QSFP for a ring of two), the host
// on PCIe Gen3 x8 in the x16 slot (the UltraScale+ block, 256-bit, behind
// kolo_pcie_shim_us: x16 needs the 512-bit interface no shim speaks yet), the
// service processor with its console on the USB-UART, LEDs. Vendor IP
// (vcu118_ip.tcl): kolo_vcu118_pcie (pcie4_uscale_plus), kolo_vcu118_gt
// (gtwizard_ultrascale); primitives: IBUFDS, IBUFDS_GTE4, MMCME4_BASE, BUFG,
// BUFG_GT. docs/boards.md.
//
// Clocks (vcu118_timing.xdc; crossings: boards/common/xilinx/kolo_cdc.tcl):
//   clk_125   125 MHz LVDS (AY24/AY23) -> MMCM: clk 250 MHz (core, service
//             processor), clk_free 100 MHz (the GT reset controller)
//   pcie_clk  the PCIe block's user clock, 250 MHz
//   gt_txusrclk2 (161.13 MHz) / gt_txusrclk (322.27 MHz): channel 0's TXOUTCLK
//             through BUFG_GTs, all six channels' transmit user clocks
//   gt_rxusrclk2[p] / gt_rxusrclk[p]: channel p's RXOUTCLK through BUFG_GTs
// Resets: the CPU reset button or the MMCM not locked hold the chip in
// reset; PERST# resets the PCIe block; the wizard's reset controller (in the
// core) holds the lanes in reset until its TX / RX sequences are done.
// Straps: node id from DIP switches SW12 1..4 ({z, y, x[1:0]}), the torus
// size from DIM_M1 (default 2x2x2), NODE_ID_HI as for the KC705.
// LEDs: 0 heartbeat, 1..6 link up of ports 0..5, 7 PCIe link up.
module kolo_board_vcu118 #(
    parameter [11:0] DIM_M1     = 12'h111,
    parameter [11:0] NODE_ID_HI = 12'h000,
    parameter SP_IMEM_INIT      = "",
    parameter SP_DMEM_INIT      = ""
) (
    input  wire       clk_125mhz_p,
    input  wire       clk_125mhz_n,
    input  wire       cpu_reset,
    input  wire       pcie_refclk_p,
    input  wire       pcie_refclk_n,
    input  wire       pcie_perst_n,
    input  wire [7:0] pcie_rx_p,
    input  wire [7:0] pcie_rx_n,
    output wire [7:0] pcie_tx_p,
    output wire [7:0] pcie_tx_n,
    input  wire       qsfp1_refclk_p,
    input  wire       qsfp1_refclk_n,
    input  wire       qsfp2_refclk_p,
    input  wire       qsfp2_refclk_n,
    input  wire [5:0] gt_rx_p,
    input  wire [5:0] gt_rx_n,
    output wire [5:0] gt_tx_p,
    output wire [5:0] gt_tx_n,
    output wire [1:0] qsfp_modsell,
    output wire [1:0] qsfp_resetl,
    output wire [1:0] qsfp_lpmode,
    output wire       uart_txd,
    input  wire       uart_rxd,
    input  wire [3:0] dip,
    output wire [7:0] led
);
  // ---- clocks -----------------------------------------------------------------------------------
  wire clk125_ibuf, mmcm_fb, mmcm_clk250, mmcm_clk100, mmcm_locked;
  IBUFDS #(.DIFF_TERM("FALSE")) u_clk125_ibuf (.I(clk_125mhz_p), .IB(clk_125mhz_n), .O(clk125_ibuf));
  MMCME4_BASE #(
      .CLKIN1_PERIOD(8.000), .DIVCLK_DIVIDE(1), .CLKFBOUT_MULT_F(8.000),   // VCO 1000 MHz
      .CLKOUT0_DIVIDE_F(4.000), .CLKOUT1_DIVIDE(10)                        // 250, 100 MHz
  ) u_mmcm (
      .CLKIN1(clk125_ibuf), .CLKFBIN(mmcm_fb), .CLKFBOUT(mmcm_fb), .RST(cpu_reset), .PWRDWN(1'b0),
      .CLKOUT0(mmcm_clk250), .CLKOUT1(mmcm_clk100), .LOCKED(mmcm_locked),
      .CLKFBOUTB(), .CLKOUT0B(), .CLKOUT1B(), .CLKOUT2(), .CLKOUT2B(), .CLKOUT3(), .CLKOUT3B(),
      .CLKOUT4(), .CLKOUT5(), .CLKOUT6()
  );
  wire clk, clk_free;
  BUFG u_clk_bufg (.I(mmcm_clk250), .O(clk));
  BUFG u_free_bufg (.I(mmcm_clk100), .O(clk_free));
  wire chip_rst = cpu_reset || !mmcm_locked;

  // ---- PCIe -------------------------------------------------------------------------------------
  wire pcie_refclk_gt, pcie_refclk_div2, pcie_refclk, pcie_clk, pcie_rst, pcie_lnk_up;
  IBUFDS_GTE4 u_pcie_refclk (.I(pcie_refclk_p), .IB(pcie_refclk_n), .CEB(1'b0),
                             .O(pcie_refclk_gt), .ODIV2(pcie_refclk_div2));
  BUFG_GT u_pcie_refclk_bufg (.I(pcie_refclk_div2), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0),
                              .CLRMASK(1'b0), .DIV(3'd0), .O(pcie_refclk));
  wire         cq_tvalid, cq_tlast, rc_tvalid, rc_tlast, cc_tvalid, cc_tlast, rq_tvalid, rq_tlast;
  wire [21:0]  cq_tready, rc_tready;
  wire [3:0]   cc_tready, rq_tready;
  wire [255:0] cq_tdata, rc_tdata, cc_tdata, rq_tdata;
  wire [84:0]  cq_tuser;
  wire [74:0]  rc_tuser;
  wire [32:0]  cc_tuser;
  wire [59:0]  rq_tuser;
  wire [7:0]   cq_tkeep, rc_tkeep, cc_tkeep, rq_tkeep;
  wire         cq_np_req;
  wire [5:0]   rq_seq_num0;
  wire         rq_seq_num_vld0;
  wire [1:0]   cfg_mps_us;
  wire [2:0]   cfg_mrrs_us;
  wire [15:0]  cfg_function_status;
  wire [3:0]   cfg_msi_enable;
  wire [31:0]  cfg_msi_int;
  wire         cfg_msi_sent, cfg_msi_fail;
  kolo_vcu118_pcie u_pcie (
      .pci_exp_txp(pcie_tx_p), .pci_exp_txn(pcie_tx_n), .pci_exp_rxp(pcie_rx_p), .pci_exp_rxn(pcie_rx_n),
      .sys_clk(pcie_refclk), .sys_clk_gt(pcie_refclk_gt), .sys_reset(pcie_perst_n),
      .user_clk(pcie_clk), .user_reset(pcie_rst), .user_lnk_up(pcie_lnk_up),
      .m_axis_cq_tdata(cq_tdata), .m_axis_cq_tuser(cq_tuser), .m_axis_cq_tlast(cq_tlast),
      .m_axis_cq_tkeep(cq_tkeep), .m_axis_cq_tvalid(cq_tvalid), .m_axis_cq_tready(cq_tready[0]),
      .m_axis_rc_tdata(rc_tdata), .m_axis_rc_tuser(rc_tuser), .m_axis_rc_tlast(rc_tlast),
      .m_axis_rc_tkeep(rc_tkeep), .m_axis_rc_tvalid(rc_tvalid), .m_axis_rc_tready(rc_tready[0]),
      .s_axis_cc_tdata(cc_tdata), .s_axis_cc_tuser(cc_tuser), .s_axis_cc_tlast(cc_tlast),
      .s_axis_cc_tkeep(cc_tkeep), .s_axis_cc_tvalid(cc_tvalid), .s_axis_cc_tready(cc_tready),
      .s_axis_rq_tdata(rq_tdata), .s_axis_rq_tuser({2'b00, rq_tuser}), .s_axis_rq_tlast(rq_tlast),
      .s_axis_rq_tkeep(rq_tkeep), .s_axis_rq_tvalid(rq_tvalid), .s_axis_rq_tready(rq_tready),
      .pcie_cq_np_req({1'b0, cq_np_req}),
      .pcie_rq_seq_num0(rq_seq_num0), .pcie_rq_seq_num_vld0(rq_seq_num_vld0),
      .cfg_max_payload(cfg_mps_us), .cfg_max_read_req(cfg_mrrs_us),
      .cfg_function_status(cfg_function_status), .cfg_interrupt_msi_enable(cfg_msi_enable),
      .cfg_interrupt_msi_int(cfg_msi_int), .cfg_interrupt_msi_sent(cfg_msi_sent),
      .cfg_interrupt_msi_fail(cfg_msi_fail), .cfg_interrupt_msi_function_number(8'd0)
  );
  wire         rx_tlp_valid, rx_tlp_ready, rx_tlp_sop, rx_tlp_eop;
  wire [127:0] rx_tlp_hdr;
  wire [255:0] rx_tlp_data;
  wire [7:0]   rx_tlp_dw_en;
  wire         tx_tlp_valid, tx_tlp_ready, tx_tlp_sop, tx_tlp_eop;
  wire [127:0] tx_tlp_hdr;
  wire [255:0] tx_tlp_data;
  wire [7:0]   tx_tlp_dw_en;
  wire [63:0]  cfg_bar0, cfg_bar2, cfg_msi_addr;
  wire [15:0]  cfg_req_id, cfg_msi_data;
  wire [2:0]   cfg_mps, cfg_mrrs;
  wire         cfg_bus_master, cfg_msi_en;
  wire         np_credit;
  wire [11:0]  cfg_cpl_hdr;
  wire [15:0]  cfg_cpl_data;
  wire         rx_cpl_valid, rx_cpl_ready, rx_cpl_sop, rx_cpl_eop;
  wire [127:0] rx_cpl_hdr;
  wire [255:0] rx_cpl_data;
  wire [7:0]   rx_cpl_dw_en;
  kolo_pcie_shim_us u_shim (
      .clk(pcie_clk), .rst(pcie_rst),
      .m_axis_cq_tvalid(cq_tvalid), .m_axis_cq_tready(cq_tready), .m_axis_cq_tdata(cq_tdata),
      .m_axis_cq_tuser(cq_tuser), .m_axis_cq_tlast(cq_tlast), .m_axis_cq_tkeep(cq_tkeep),
      .pcie_cq_np_req(cq_np_req),
      .m_axis_rc_tvalid(rc_tvalid), .m_axis_rc_tready(rc_tready), .m_axis_rc_tdata(rc_tdata),
      .m_axis_rc_tuser(rc_tuser), .m_axis_rc_tlast(rc_tlast), .m_axis_rc_tkeep(rc_tkeep),
      .s_axis_cc_tvalid(cc_tvalid), .s_axis_cc_tready(cc_tready), .s_axis_cc_tdata(cc_tdata),
      .s_axis_cc_tuser(cc_tuser), .s_axis_cc_tlast(cc_tlast), .s_axis_cc_tkeep(cc_tkeep),
      .s_axis_rq_tvalid(rq_tvalid), .s_axis_rq_tready(rq_tready), .s_axis_rq_tdata(rq_tdata),
      .s_axis_rq_tuser(rq_tuser), .s_axis_rq_tlast(rq_tlast), .s_axis_rq_tkeep(rq_tkeep),
      .cfg_max_payload({1'b0, cfg_mps_us}), .cfg_max_read_req(cfg_mrrs_us),
      .cfg_function_status(cfg_function_status), .cfg_interrupt_msi_enable(cfg_msi_enable[1:0]),
      .cfg_interrupt_msi_int(cfg_msi_int), .cfg_interrupt_msi_sent(cfg_msi_sent),
      .cfg_interrupt_msi_fail(cfg_msi_fail),
      .ep_rx_tlp_valid(rx_tlp_valid), .ep_rx_tlp_ready(rx_tlp_ready), .ep_rx_tlp_hdr(rx_tlp_hdr),
      .ep_rx_tlp_data(rx_tlp_data), .ep_rx_tlp_sop(rx_tlp_sop), .ep_rx_tlp_eop(rx_tlp_eop),
      .ep_rx_tlp_dw_en(rx_tlp_dw_en),
      .ep_tx_tlp_valid(tx_tlp_valid), .ep_tx_tlp_ready(tx_tlp_ready), .ep_tx_tlp_hdr(tx_tlp_hdr),
      .ep_tx_tlp_data(tx_tlp_data), .ep_tx_tlp_sop(tx_tlp_sop), .ep_tx_tlp_eop(tx_tlp_eop),
      .ep_tx_tlp_dw_en(tx_tlp_dw_en),
      .ep_cfg_bar0(cfg_bar0), .ep_cfg_bar2(cfg_bar2), .ep_cfg_req_id(cfg_req_id),
      .ep_cfg_max_payload(cfg_mps), .ep_cfg_max_read_req(cfg_mrrs), .ep_cfg_bus_master(cfg_bus_master),
      .ep_cfg_msi_addr(cfg_msi_addr), .ep_cfg_msi_data(cfg_msi_data), .ep_cfg_msi_en(cfg_msi_en),
      .ep_np_credit(np_credit), .ep_cfg_cpl_hdr(cfg_cpl_hdr), .ep_cfg_cpl_data(cfg_cpl_data),
      // the block reports each request's sequence number once no completion can pass it
      // (256-bit, straddle off: one report a cycle, on seq_num0; the top 2 bits of the
      // numbers are 0: s_axis_rq_tuser[61:60])
      .pcie_rq_seq_num(rq_seq_num0[3:0]), .pcie_rq_seq_num_vld(rq_seq_num_vld0),
      // requester completions (RC) on a stream of their own, into the chip's
      .ep_rx_cpl_valid(rx_cpl_valid), .ep_rx_cpl_ready(rx_cpl_ready), .ep_rx_cpl_hdr(rx_cpl_hdr),
      .ep_rx_cpl_data(rx_cpl_data), .ep_rx_cpl_sop(rx_cpl_sop), .ep_rx_cpl_eop(rx_cpl_eop),
      .ep_rx_cpl_dw_en(rx_cpl_dw_en)
  );

  // ---- transceivers ---------------------------------------------------------------------------
  wire [1:0] gt_refclk;
  IBUFDS_GTE4 u_qsfp1_refclk (.I(qsfp1_refclk_p), .IB(qsfp1_refclk_n), .CEB(1'b0), .O(gt_refclk[0]), .ODIV2());
  IBUFDS_GTE4 u_qsfp2_refclk (.I(qsfp2_refclk_p), .IB(qsfp2_refclk_n), .CEB(1'b0), .O(gt_refclk[1]), .ODIV2());
  wire [5:0] gt_txoutclk, gt_rxoutclk, gt_rxusrclk, gt_rxusrclk2;
  wire       gt_txusrclk, gt_txusrclk2, gt_tx_done, gt_rx_done;
  // 64-bit user data, 32-bit internal: USRCLK at line rate / 32, USRCLK2 at half of it
  BUFG_GT u_txusrclk (.I(gt_txoutclk[0]), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0), .CLRMASK(1'b0),
                      .DIV(3'd0), .O(gt_txusrclk));
  BUFG_GT u_txusrclk2 (.I(gt_txoutclk[0]), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0), .CLRMASK(1'b0),
                       .DIV(3'd1), .O(gt_txusrclk2));
  genvar p;
  generate
    for (p = 0; p < 6; p = p + 1) begin : g_rxclk
      BUFG_GT u_rxusrclk (.I(gt_rxoutclk[p]), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0), .CLRMASK(1'b0),
                          .DIV(3'd0), .O(gt_rxusrclk[p]));
      BUFG_GT u_rxusrclk2 (.I(gt_rxoutclk[p]), .CE(1'b1), .CEMASK(1'b0), .CLR(1'b0), .CLRMASK(1'b0),
                           .DIV(3'd1), .O(gt_rxusrclk2[p]));
    end
  endgenerate
  wire [6*7-1:0]  lane_tx_sequence;
  wire [6*64-1:0] lane_tx_data, lane_rx_data;
  wire [6*2-1:0]  lane_tx_header, lane_rx_header;
  wire [5:0]      lane_rx_data_valid, lane_rx_header_valid, lane_rx_slip, lane_loopback;
  wire [35:0]     gt_rxheader;
  wire [11:0]     gt_rxheadervalid, gt_rxdatavalid;
  wire [35:0]     gt_txheader;
  wire [17:0]     gt_loopback;
  generate
    for (p = 0; p < 6; p = p + 1) begin : g_lane_map
      assign gt_txheader[6*p+:6] = {4'd0, lane_tx_header[2*p+:2]};
      assign lane_rx_header[2*p+:2] = gt_rxheader[6*p+:2];
      assign lane_rx_header_valid[p] = gt_rxheadervalid[2*p];
      assign lane_rx_data_valid[p] = gt_rxdatavalid[2*p];
      assign gt_loopback[3*p+:3] = {1'b0, lane_loopback[p], 1'b0};   // 010: near-end PCS loopback
    end
  endgenerate
  // the helper blocks' "active": the user clocks run (the MMCM-free BUFG_GT
  // clocks run as soon as the TXOUTCLK / RXOUTCLK do); held until the PMA is out of reset
  wire [5:0] tx_pma_done, rx_pma_done;
  kolo_vcu118_gt u_gt (
      .gtrefclk00_in(gt_refclk), .gtwiz_reset_clk_freerun_in(clk_free), .gtwiz_reset_all_in(chip_rst),
      .gtwiz_reset_tx_pll_and_datapath_in(1'b0), .gtwiz_reset_tx_datapath_in(1'b0),
      .gtwiz_reset_rx_pll_and_datapath_in(1'b0), .gtwiz_reset_rx_datapath_in(1'b0),
      .gtwiz_reset_rx_cdr_stable_out(), .gtwiz_reset_tx_done_out(gt_tx_done),
      .gtwiz_reset_rx_done_out(gt_rx_done),
      .gtwiz_userclk_tx_active_in(&tx_pma_done), .gtwiz_userclk_rx_active_in(&rx_pma_done),
      .gtwiz_userdata_tx_in(lane_tx_data), .gtwiz_userdata_rx_out(lane_rx_data),
      .txheader_in(gt_txheader), .txsequence_in(lane_tx_sequence), .rxheader_out(gt_rxheader),
      .rxheadervalid_out(gt_rxheadervalid), .rxdatavalid_out(gt_rxdatavalid),
      .rxgearboxslip_in(lane_rx_slip), .loopback_in(gt_loopback),
      .gtyrxn_in(gt_rx_n), .gtyrxp_in(gt_rx_p), .gtytxn_out(gt_tx_n), .gtytxp_out(gt_tx_p),
      .txoutclk_out(gt_txoutclk), .rxoutclk_out(gt_rxoutclk),
      .txusrclk_in({6{gt_txusrclk}}), .txusrclk2_in({6{gt_txusrclk2}}),
      .rxusrclk_in(gt_rxusrclk), .rxusrclk2_in(gt_rxusrclk2),
      .gtpowergood_out(), .txpmaresetdone_out(tx_pma_done), .rxpmaresetdone_out(rx_pma_done)
  );
  wire unused_gt = &{1'b0, gt_txoutclk[5:1], gt_rxheader, gt_rxheadervalid, gt_rxdatavalid};

  // ---- the chip ---------------------------------------------------------------------------------
  wire [11:0] node_id = NODE_ID_HI | {3'd0, dip[3], 3'd0, dip[2], 2'd0, dip[1:0]};
  wire [5:0]  link_up;
  wire        sp_heartbeat, sp_con_valid, sp_con_ready;
  wire [7:0]  sp_con_data;
  /* verilator lint_off PINCONNECTEMPTY */  // monitors and status: simulation and logic analysers
  kolo_chip #(
      .PORT_EN(6'b111111), .LANES(1), .GT_DATA_W(64), .GT_PAUSE_SEQ(32),
      .PCIE_ASYNC(1), .SP_INTERNAL(1), .SP_ASYNC(0),
      .SP_IMEM_INIT(SP_IMEM_INIT), .SP_DMEM_INIT(SP_DMEM_INIT)
  ) u_chip (
      .clk(clk), .rst(chip_rst), .node_id(node_id), .dim_m1(DIM_M1), .ready(),
      .pcie_clk(pcie_clk), .pcie_rst(pcie_rst),
      .rx_tlp_valid(rx_tlp_valid), .rx_tlp_ready(rx_tlp_ready), .rx_tlp_hdr(rx_tlp_hdr),
      .rx_tlp_data(rx_tlp_data), .rx_tlp_sop(rx_tlp_sop), .rx_tlp_eop(rx_tlp_eop),
      .rx_tlp_dw_en(rx_tlp_dw_en),
      .tx_tlp_valid(tx_tlp_valid), .tx_tlp_ready(tx_tlp_ready), .tx_tlp_hdr(tx_tlp_hdr),
      .tx_tlp_data(tx_tlp_data), .tx_tlp_sop(tx_tlp_sop), .tx_tlp_eop(tx_tlp_eop),
      .tx_tlp_dw_en(tx_tlp_dw_en),
      .cfg_bar0(cfg_bar0), .cfg_bar2(cfg_bar2), .cfg_req_id(cfg_req_id),
      .cfg_max_payload(cfg_mps), .cfg_max_read_req(cfg_mrrs), .cfg_bus_master(cfg_bus_master),
      .cfg_msi_addr(cfg_msi_addr), .cfg_msi_data(cfg_msi_data), .cfg_msi_en(cfg_msi_en),
      .cfg_cpl_hdr(cfg_cpl_hdr), .cfg_cpl_data(cfg_cpl_data), .np_credit(np_credit),
      .rx_cpl_valid(rx_cpl_valid), .rx_cpl_ready(rx_cpl_ready), .rx_cpl_hdr(rx_cpl_hdr),
      .rx_cpl_data(rx_cpl_data), .rx_cpl_sop(rx_cpl_sop), .rx_cpl_eop(rx_cpl_eop),
      .rx_cpl_dw_en(rx_cpl_dw_en),
      .lane_tx_clk({6{gt_txusrclk2}}), .lane_tx_rst({6{!gt_tx_done}}), .lane_tx_sequence(lane_tx_sequence),
      .lane_rx_clk(gt_rxusrclk2), .lane_rx_rst({6{!gt_rx_done}}), .lane_loopback(lane_loopback),
      .lane_tx_data(lane_tx_data), .lane_tx_header(lane_tx_header),
      .lane_rx_data(lane_rx_data), .lane_rx_header(lane_rx_header),
      .lane_rx_data_valid(lane_rx_data_valid), .lane_rx_header_valid(lane_rx_header_valid),
      .lane_rx_slip(lane_rx_slip),
      .sp_clk(clk), .sp_console_valid(sp_con_valid), .sp_console_data(sp_con_data),
      .sp_console_ready(sp_con_ready), .sp_heartbeat(sp_heartbeat),
      .s_axil_awvalid(1'b0), .s_axil_awready(), .s_axil_awaddr(15'd0), .s_axil_wvalid(1'b0),
      .s_axil_wready(), .s_axil_wdata(32'd0), .s_axil_wstrb(4'd0), .s_axil_bvalid(),
      .s_axil_bready(1'b1), .s_axil_bresp(), .s_axil_arvalid(1'b0), .s_axil_arready(),
      .s_axil_araddr(15'd0), .s_axil_rvalid(), .s_axil_rready(1'b1), .s_axil_rdata(),
      .s_axil_rresp(), .s_irq(),
      // no register port (HOST_IF = 0: the host is on PCIe)
      .h_axil_awvalid(1'b0), .h_axil_awready(), .h_axil_awaddr(15'd0), .h_axil_wvalid(1'b0),
      .h_axil_wready(), .h_axil_wdata(32'd0), .h_axil_wstrb(4'd0), .h_axil_bvalid(),
      .h_axil_bready(1'b1), .h_axil_bresp(), .h_axil_arvalid(1'b0), .h_axil_arready(),
      .h_axil_araddr(15'd0), .h_axil_rvalid(), .h_axil_rready(1'b1), .h_axil_rdata(),
      .h_axil_rresp(),
      .link_up(link_up),
      .mon_inj_valid(), .mon_inj_flit(), .mon_ej_valid(), .mon_ej_flit(), .mon_out_valid(),
      .mon_out_flit(), .mon_out_sunk(), .mon_in_valid(), .mon_in_flit(), .mon_svc_wr(),
      .mon_svc_wr_addr(), .mon_svc_wr_data(), .stat_router_errors(), .stat_router_fault_drops(),
      .stat_link_state(), .stat_link_counters(), .stat_lane_reset(), .stat_ni(), .stat_ni_dbg(),
      .stat_pcie(), .stat_port_en(), .stat_e2e_inc()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- console (USB-UART, 115200 8N1), QSFP control, LEDs ------------------------------------
  // Its reset is chip_rst through a reset synchroniser: clk stops while the
  // MMCM is unlocked, so chip_rst alone never met a clock edge and the line
  // stayed low (a break) until the first byte (issue 18: found on the KC705
  // top, which has the same clocking, by the board-level simulation).
  wire con_rst;
  kolo_reset_sync u_con_rst (.clk(clk), .rst_in(chip_rst), .rst_out(con_rst));
  kolo_uart_tx #(.CLK_HZ(250000000), .BAUD(115200)) u_console (
      .clk(clk), .rst(con_rst), .s_valid(sp_con_valid), .s_ready(sp_con_ready), .s_data(sp_con_data),
      .txd(uart_txd)
  );
  wire unused_uart = uart_rxd;
  assign qsfp_modsell = 2'b00;   // selected (I2C), not used
  assign qsfp_resetl = 2'b11;    // out of reset
  assign qsfp_lpmode = 2'b00;    // high power
  (* ASYNC_REG = "TRUE" *) reg [1:0] lnk_s;
  always @(posedge clk) lnk_s <= {lnk_s[0], pcie_lnk_up};
  assign led = {lnk_s[1], link_up, sp_heartbeat};
endmodule
`default_nettype wire
