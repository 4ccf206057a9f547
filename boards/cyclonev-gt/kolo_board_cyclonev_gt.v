`default_nettype none
// kolo_board_cyclonev_gt - kolo on the Intel (Altera) Cyclone V GT FPGA
// Development Kit (5CGTFD9E5F35C7): the chip (kolo_chip) with four network
// ports (X+ on the SMA transceiver pair, X- Y+ Y- on HSMC port A's
// transceivers: a 2D torus up to 16x16), the host on PCIe Gen2 x4 (the hard
// IP's 128-bit Avalon-ST, widened to 256 bits by kolo_c5_avst_width for
// kolo_pcie_shim_avst), the service processor with its console on the HSMA
// debug header, LEDs. The Cyclone V PCS has no 64b/66b gearbox: the
// transceivers run raw 32-bit words at 5.0 Gb/s and kolo_soft_gearbox_tx/rx
// make the 66-bit blocks in fabric, in the transceivers' own clocks. Vendor
// IP (Platform Designer systems made by c5gt_ip.tcl): kolo_c5gt_pcie,
// kolo_c5gt_xcvr. docs/boards.md.
//
// Clocks (c5gt.sdc; crossings: boards/common/intel/kolo_cdc.sdc):
//   clk125     125 MHz LVDS oscillator (U31): the core, service processor,
//              and the transceivers' reconfiguration / reset controllers
//   pcie_clk   the hard IP's coreclkout (125 MHz), its own domain
//   xcvr_tx_clk[p], xcvr_rx_clk[p]: channel p's tx_clkout / rx_clkout
//              (line rate / 32 = 156.25 MHz), the lanes' clocks
// Resets: the user reset button (S2, AD29) holds the chip in reset; PERST#
// and the button reset the hard IP (npor); a channel whose reset controller
// does not say ready holds its port's lanes in reset.
// Straps: node id from the user DIP switches (SW1 1..4 x, 5..8 y), torus
// size from DIM_M1 (default 2x2x1).
// LEDs (D5..D12, on when low): 0 heartbeat, 1..4 link up of ports 0..3,
// 5 PCIe data link up, 6 transceivers ready, 7 chip out of reset.
module kolo_board_cyclonev_gt #(
    parameter [11:0] DIM_M1 = 12'h011,
    parameter SP_IMEM_INIT  = "",
    parameter SP_DMEM_INIT  = ""
) (
    input  wire       clk125,             // 125 MHz LVDS (the p pin; Quartus places the n)
    input  wire       user_reset_n,
    input  wire       pcie_refclk,        // 100 MHz HCSL from the slot
    input  wire       pcie_perst_n,
    input  wire [3:0] pcie_rx,            // serial lanes (p pins)
    output wire [3:0] pcie_tx,
    input  wire       xcvr_refclk,        // 100 MHz (REFCLK_QL1)
    input  wire [3:0] xcvr_rx,            // port p: 0 SMA, 1..3 HSMC port A lanes 0..2
    output wire [3:0] xcvr_tx,
    output wire       uart_txd,
    input  wire [7:0] dip,
    output wire [7:0] led_n
);
  wire clk = clk125;
  // the button, asynchronous: two flops, then a reset for the whole board
  (* ASYNC_REG = "TRUE" *) reg [1:0] rst_s;
  always @(posedge clk) rst_s <= {rst_s[0], !user_reset_n};
  wire chip_rst = rst_s[1];

  // ---- PCIe -------------------------------------------------------------------------------------
  wire         pcie_clk, hip_reset_status, hip_dlup;
  wire         h_rx_valid, h_rx_ready, h_rx_sop, h_rx_eop, h_rx_empty;
  wire [127:0] h_rx_data, h_tx_data;
  wire [7:0]   h_rx_bar;
  wire         h_tx_valid, h_tx_ready, h_tx_sop, h_tx_eop, h_tx_empty;
  wire [3:0]   tl_cfg_add;
  wire [31:0]  tl_cfg_ctl;
  wire [52:0]  tl_cfg_sts;
  wire         msi_req, msi_ack;
  wire [4:0]   msi_num;
  wire [2:0]   msi_tc;
  wire         rx_mask;
  // the hard IP's completion buffer (headers, 16-byte data credits): the core's DMA reads stay within it
  wire [7:0]   ko_cpl_spc_header;
  wire [11:0]  ko_cpl_spc_data;
  kolo_c5gt_pcie u_pcie (
      .refclk_clk(pcie_refclk), .npor_npor(user_reset_n), .npor_pin_perst(pcie_perst_n),
      .reconfig_clk_clk(clk), .reconfig_reset_reset(chip_rst),
      .coreclkout_hip_clk(pcie_clk), .pld_clk_clk(pcie_clk),
      .hip_status_reset_status(hip_reset_status), .hip_status_dlup(hip_dlup),
      .hip_status_ko_cpl_spc_header(ko_cpl_spc_header), .hip_status_ko_cpl_spc_data(ko_cpl_spc_data),
      .hip_serial_rx_in(pcie_rx), .hip_serial_tx_out(pcie_tx),
      .rx_st_data(h_rx_data), .rx_st_valid(h_rx_valid), .rx_st_ready(h_rx_ready),
      .rx_st_startofpacket(h_rx_sop), .rx_st_endofpacket(h_rx_eop), .rx_st_empty(h_rx_empty),
      .rx_bar_be_rx_st_bar(h_rx_bar), .rx_bar_be_rx_st_mask(rx_mask),
      .tx_st_data(h_tx_data), .tx_st_valid(h_tx_valid), .tx_st_ready(h_tx_ready),
      .tx_st_startofpacket(h_tx_sop), .tx_st_endofpacket(h_tx_eop), .tx_st_empty(h_tx_empty),
      .tx_st_error(1'b0),
      .config_tl_tl_cfg_add(tl_cfg_add), .config_tl_tl_cfg_ctl(tl_cfg_ctl),
      .config_tl_tl_cfg_sts(tl_cfg_sts),
      .int_msi_app_msi_req(msi_req), .int_msi_app_msi_ack(msi_ack), .int_msi_app_msi_num(msi_num),
      .int_msi_app_msi_tc(msi_tc)
  );
  wire pcie_rst = hip_reset_status;
  wire unused_sts = &{1'b0, tl_cfg_sts};

  // the configuration the hard IP shows on tl_cfg_ctl, one register per
  // tl_cfg_add (the Cyclone V hard IP's map): 0 device control (31:16),
  // 3 command (23:8), 10 MSI control (15:0), 15 bus/device (12:0). The
  // values are stable for many cycles; tl_cfg_add walks through them.
  reg [15:0] cfg_dev_ctrl, cfg_cmd, cfg_msi_ctrl;
  reg [12:0] cfg_busdev;
  always @(posedge pcie_clk) begin
    if (pcie_rst) begin
      cfg_dev_ctrl <= 16'd0;
      cfg_cmd <= 16'd0;
      cfg_msi_ctrl <= 16'd0;
      cfg_busdev <= 13'd0;
    end else begin
      case (tl_cfg_add)
        4'h0: cfg_dev_ctrl <= tl_cfg_ctl[31:16];
        4'h3: cfg_cmd <= tl_cfg_ctl[23:8];
        4'hA: cfg_msi_ctrl <= tl_cfg_ctl[15:0];
        4'hF: cfg_busdev <= tl_cfg_ctl[12:0];
        default: ;
      endcase
    end
  end

  wire         s_rx_valid, s_rx_ready, s_rx_sop, s_rx_eop;
  wire [255:0] s_rx_data, s_tx_data;
  wire [1:0]   s_rx_empty, s_tx_empty;
  wire [7:0]   s_rx_bar;
  wire         s_tx_valid, s_tx_ready, s_tx_sop, s_tx_eop, s_tx_err;
  kolo_c5_avst_width #(.HIP_RX_LATENCY(2), .HIP_TX_LATENCY(2), .SHIM_TX_LATENCY(2)) u_width (
      .clk(pcie_clk), .rst(pcie_rst),
      .hip_rx_valid(h_rx_valid), .hip_rx_ready(h_rx_ready), .hip_rx_data(h_rx_data),
      .hip_rx_sop(h_rx_sop), .hip_rx_eop(h_rx_eop), .hip_rx_empty(h_rx_empty), .hip_rx_bar(h_rx_bar),
      .shim_rx_valid(s_rx_valid), .shim_rx_ready(s_rx_ready), .shim_rx_data(s_rx_data),
      .shim_rx_sop(s_rx_sop), .shim_rx_eop(s_rx_eop), .shim_rx_empty(s_rx_empty), .shim_rx_bar(s_rx_bar),
      .shim_tx_valid(s_tx_valid), .shim_tx_ready(s_tx_ready), .shim_tx_data(s_tx_data),
      .shim_tx_sop(s_tx_sop), .shim_tx_eop(s_tx_eop), .shim_tx_empty(s_tx_empty),
      .hip_tx_valid(h_tx_valid), .hip_tx_ready(h_tx_ready), .hip_tx_data(h_tx_data),
      .hip_tx_sop(h_tx_sop), .hip_tx_eop(h_tx_eop), .hip_tx_empty(h_tx_empty)
  );
  wire unused_err = s_tx_err;

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
  kolo_pcie_shim_avst #(.RX_READY_LATENCY(1), .TX_READY_LATENCY(2)) u_shim (
      .clk(pcie_clk), .rst(pcie_rst),
      .rx_st_valid(s_rx_valid), .rx_st_ready(s_rx_ready), .rx_st_data(s_rx_data),
      .rx_st_sop(s_rx_sop), .rx_st_eop(s_rx_eop), .rx_st_empty(s_rx_empty), .rx_st_bar(s_rx_bar),
      .rx_st_mask(rx_mask),
      .tx_st_valid(s_tx_valid), .tx_st_ready(s_tx_ready), .tx_st_data(s_tx_data),
      .tx_st_sop(s_tx_sop), .tx_st_eop(s_tx_eop), .tx_st_empty(s_tx_empty), .tx_st_err(s_tx_err),
      .app_msi_req(msi_req), .app_msi_ack(msi_ack), .app_msi_num(msi_num), .app_msi_tc(msi_tc),
      .cfg_req_id({cfg_busdev, 3'd0}), .cfg_max_payload(cfg_dev_ctrl[7:5]),
      .cfg_max_read_req(cfg_dev_ctrl[14:12]), .cfg_bus_master(cfg_cmd[2]), .cfg_msi_en(cfg_msi_ctrl[0]),
      .ep_rx_tlp_valid(rx_tlp_valid), .ep_rx_tlp_ready(rx_tlp_ready), .ep_rx_tlp_hdr(rx_tlp_hdr),
      .ep_rx_tlp_data(rx_tlp_data), .ep_rx_tlp_sop(rx_tlp_sop), .ep_rx_tlp_eop(rx_tlp_eop),
      .ep_rx_tlp_dw_en(rx_tlp_dw_en),
      .ep_tx_tlp_valid(tx_tlp_valid), .ep_tx_tlp_ready(tx_tlp_ready), .ep_tx_tlp_hdr(tx_tlp_hdr),
      .ep_tx_tlp_data(tx_tlp_data), .ep_tx_tlp_sop(tx_tlp_sop), .ep_tx_tlp_eop(tx_tlp_eop),
      .ep_tx_tlp_dw_en(tx_tlp_dw_en),
      .ep_cfg_bar0(cfg_bar0), .ep_cfg_bar2(cfg_bar2), .ep_cfg_req_id(cfg_req_id),
      .ep_cfg_max_payload(cfg_mps), .ep_cfg_max_read_req(cfg_mrrs), .ep_cfg_bus_master(cfg_bus_master),
      .ep_cfg_msi_addr(cfg_msi_addr), .ep_cfg_msi_data(cfg_msi_data), .ep_cfg_msi_en(cfg_msi_en),
      .ko_cpl_spc_header(ko_cpl_spc_header), .ko_cpl_spc_data(ko_cpl_spc_data),
      .ep_np_credit(np_credit), .ep_cfg_cpl_hdr(cfg_cpl_hdr), .ep_cfg_cpl_data(cfg_cpl_data)
  );

  // ---- transceivers and soft gearboxes ---------------------------------------------------------
  wire [3:0]   xcvr_tx_clk, xcvr_rx_clk, xcvr_tx_ready, xcvr_rx_ready;
  wire [127:0] xcvr_tx_data, xcvr_rx_data;
  wire [5:0]   lane_loopback;
  kolo_c5gt_xcvr u_xcvr (
      .refclk_clk(xcvr_refclk), .mgmt_clk_clk(clk), .mgmt_reset_reset(chip_rst),
      .rx_serial_data_rx_serial_data(xcvr_rx), .tx_serial_data_tx_serial_data(xcvr_tx),
      .tx_clkout_tx_std_clkout(xcvr_tx_clk), .rx_clkout_rx_std_clkout(xcvr_rx_clk),
      .tx_parallel_data_tx_parallel_data(xcvr_tx_data), .rx_parallel_data_rx_parallel_data(xcvr_rx_data),
      .tx_ready_tx_ready(xcvr_tx_ready), .rx_ready_rx_ready(xcvr_rx_ready),
      .rx_seriallpbken_rx_seriallpbken(lane_loopback[3:0])
  );
  wire [6*7-1:0]  lane_tx_sequence;
  wire [6*32-1:0] lane_tx_data, lane_rx_data;
  wire [6*2-1:0]  lane_tx_header, lane_rx_header;
  wire [5:0]      lane_rx_data_valid, lane_rx_header_valid, lane_rx_slip;
  genvar p;
  generate
    for (p = 0; p < 4; p = p + 1) begin : g_lane
      wire tx_rst, rx_rst;
      kolo_reset_sync u_tx_rst (.clk(xcvr_tx_clk[p]), .rst_in(!xcvr_tx_ready[p]), .rst_out(tx_rst));
      kolo_reset_sync u_rx_rst (.clk(xcvr_rx_clk[p]), .rst_in(!xcvr_rx_ready[p]), .rst_out(rx_rst));
      kolo_soft_gearbox_tx u_gb_tx (
          .clk(xcvr_tx_clk[p]), .rst(tx_rst), .gt_data(lane_tx_data[32*p+:32]),
          .gt_header(lane_tx_header[2*p+:2]), .gt_sequence(lane_tx_sequence[7*p+:7]),
          .m_bits(xcvr_tx_data[32*p+:32])
      );
      kolo_soft_gearbox_rx #(.IN_W(32)) u_gb_rx (
          .clk(xcvr_rx_clk[p]), .rst(rx_rst), .s_bits(xcvr_rx_data[32*p+:32]), .gt_slip(lane_rx_slip[p]),
          .gt_data(lane_rx_data[32*p+:32]), .gt_header(lane_rx_header[2*p+:2]),
          .gt_data_valid(lane_rx_data_valid[p]), .gt_header_valid(lane_rx_header_valid[p])
      );
    end
  endgenerate
  assign lane_rx_data[6*32-1:128] = 64'd0;
  assign lane_rx_header[11:8] = 4'd0;
  assign lane_rx_data_valid[5:4] = 2'b00;
  assign lane_rx_header_valid[5:4] = 2'b00;

  // ---- the chip ---------------------------------------------------------------------------------
  wire [11:0] node_id = {4'd0, dip[7:4], dip[3:0]};
  wire [5:0]  link_up;
  wire        chip_ready, sp_heartbeat, sp_con_valid, sp_con_ready;
  wire [7:0]  sp_con_data;
  /* verilator lint_off PINCONNECTEMPTY */  // monitors and status: simulation and logic analysers
  kolo_chip #(
      .PORT_EN(6'b001111), .LANES(1), .GT_DATA_W(32), .GT_PAUSE_SEQ(32),
      .PCIE_ASYNC(1), .SP_INTERNAL(1), .SP_ASYNC(0),
      .SP_IMEM_INIT(SP_IMEM_INIT), .SP_DMEM_INIT(SP_DMEM_INIT)
  ) u_chip (
      .clk(clk), .rst(chip_rst), .node_id(node_id), .dim_m1(DIM_M1), .ready(chip_ready),
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
      // completions arrive with the requests on rx_tlp_* (one receive stream)
      .rx_cpl_valid(1'b0), .rx_cpl_ready(), .rx_cpl_hdr(128'd0), .rx_cpl_data(256'd0),
      .rx_cpl_sop(1'b0), .rx_cpl_eop(1'b0), .rx_cpl_dw_en(8'd0),
      .lane_tx_clk({2'b00, xcvr_tx_clk}), .lane_tx_rst({2'b11, ~xcvr_tx_ready}),
      .lane_tx_sequence(lane_tx_sequence),
      .lane_rx_clk({2'b00, xcvr_rx_clk}), .lane_rx_rst({2'b11, ~xcvr_rx_ready}),
      .lane_loopback(lane_loopback),
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

  // ---- console (HSMA debug header, 115200 8N1), LEDs ---------------------------------------------
  kolo_uart_tx #(.CLK_HZ(125000000), .BAUD(115200)) u_console (
      .clk(clk), .rst(chip_rst), .s_valid(sp_con_valid), .s_ready(sp_con_ready), .s_data(sp_con_data),
      .txd(uart_txd)
  );
  // PCIe link up and the transceivers' ready flags, into clk for the LEDs
  wire [8:0] st_s;
  kolo_sync_bit #(.WIDTH(9)) u_st_sync (
      .clk(clk), .in({hip_dlup, xcvr_tx_ready, xcvr_rx_ready}), .out(st_s)
  );
  wire [7:0] led = {chip_ready, &st_s[7:0], st_s[8], link_up[3:0], sp_heartbeat};
  assign led_n = ~led;
  wire unused = &{1'b0, link_up[5:4], lane_tx_data[6*32-1:128], lane_tx_header[11:8],
                  lane_tx_sequence[41:28], lane_rx_slip[5:4], lane_loopback[5:4]};
endmodule
`default_nettype wire
