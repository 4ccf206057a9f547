`default_nettype none
// kolo_board_ecp5_evn - kolo on the Lattice ECP5 Evaluation Board
// (LFE5UM5G-85F-8BG381): the chip (kolo_chip) without PCIe and without an
// NI (HOST_IF = 1: the router, the service block and processor) with two
// network ports, X+ and X-, over the two SERDES channels of DCU0 on SMA
// connectors, and the host reached over the UART of the board's FT2232H
// (kolo_uart_host + kolo_uart_regs: 32-bit reads and writes of the service
// registers at their BAR0 offsets 0x8000..0xffff, on the chip's register
// port; and the service processor's console). No NI, so programs that need
// one (libkolo contexts, PUT/GET) do not run here; register access
// (kolo-ctl) and the firmware's MGMT messages do. docs/boards.md.
//
// Clocks (constraints in ecp5_evn.lpf):
//   clk12      12 MHz from the FT2232H (JP2 closed), the only free-running clock
//   clk        core: PLL from clk12, CORE_KHZ (VCO 600 MHz / CORE_DIV): the
//              chip's core, service block, processor, register port, UART
//   dcu tx_clk[ch] / rx_clk[ch]   line rate / 20 (DCU 20-bit raw mode), the
//              SERDES' transmit and recovered receive clocks
//   lane_tx    line rate / 32: PLL from the DCU's tx_clk[0]; the chip's
//              gearbox adapters' tx lane clock (both ports) and
//              kolo_soft_gearbox_tx; kolo_bits_xing crosses into each tx_clk
//   the chip's lane_rx_clk[p] is the DCU's rx_clk of its channel, where
//   kolo_soft_gearbox_rx runs
// Line rate: the 200 MHz oscillator on the DCU's reference pins (EXTREF0,
// Y19/W20) times REFCK_MULT 10: 2.0 Gb/s; the core must run at line rate /
// 66 at least (30.3 MHz; kolo_link's rule), the default 33.3 MHz does.
// Resets: the board reset (button SW2 or a change of the DIP switches that
// give the straps) and PLL lock hold the chip in reset (kolo_chip's rst,
// asynchronous; it synchronises every domain itself); a DCU side that is
// not ready holds its port's lanes in reset (lane_tx_rst / lane_rx_rst).
// Straps: DIP switches 1..4 node x (0..15), 5..8 X ring size - 1 (two
// boards: 1); Y and Z sizes 1. A change holds the chip in reset while the
// switches settle (kolo_svc reads the straps in reset).
// LEDs (D2..D9 = led[0..7], low = on): 0 service processor heartbeat,
// 1 link X+ up, 2 link X- up, 3 DCU TX PLL locked, 4/5 SERDES channel 0/1
// receiving, 6 UART activity, 7 chip out of reset.
module kolo_board_ecp5_evn #(
    parameter CORE_DIV     = 18,        // core clock = 600 MHz / CORE_DIV
    parameter BAUD         = 1000000,
    parameter REFCK_MULT   = 10,        // line rate = 200 MHz * REFCK_MULT
    parameter SP_IMEM_INIT = "",        // the service processor's firmware image
    parameter SP_DMEM_INIT = "",
    // shortened by the board simulation (tb/board_sim) only:
    parameter SETTLE_BITS  = 20,        // board reset: the switches still for 2^SETTLE_BITS core cycles (31 ms)
    parameter DCU_RESET_CYCLES = 4096,  // kolo_ecp5_dcu's reset and lock waits
    parameter DCU_LOCK_CYCLES  = 65536
) (
    input  wire       clk12,
    input  wire       btn_rst_n,        // SW2 (low = pressed)
    input  wire [7:0] dip,              // DIP switch SW1 (1 = on)
    input  wire       refclk_p,         // 200 MHz, DCU0 EXTREF0
    input  wire       refclk_n,
    input  wire [1:0] sma_rx_p,         // DCU0 channel ch receive (SMA), ch 0: X+, 1: X-
    input  wire [1:0] sma_rx_n,
    output wire [1:0] sma_tx_p,         // DCU0 channel ch transmit (SMA)
    output wire [1:0] sma_tx_n,
    input  wire       uart_rx,          // from the FT2232H port B (the host)
    output wire       uart_tx,
    output wire [7:0] led_n
);
  localparam integer CORE_KHZ = 600000 / CORE_DIV;

  // ---- core clock ------------------------------------------------------------------------------
  wire clk, clk_100_unused, core_lock;
  kolo_ecp5_pll #(.IN_KHZ(12000), .CLKI_DIV(3), .CLKFB_DIV(25), .CLKOP_DIV(6), .CLKOS_DIV(CORE_DIV)) u_core_pll (
      .clk_in(clk12), .rst(1'b0), .clk_op(clk_100_unused), .clk_os(clk), .lock(core_lock)
  );

  // ---- board reset and straps (core clock) --------------------------------------------------------
  (* ASYNC_REG = "TRUE" *) reg [8:0] in_s1, in_s2;   // {button, dip}: asynchronous inputs
  always @(posedge clk) begin
    in_s1 <= {!btn_rst_n, dip};
    in_s2 <= in_s1;
  end
  reg [7:0]  dip_q;
  reg [SETTLE_BITS-1:0] settle;   // the switches have been still this long (saturates)
  reg        board_rst;
  always @(posedge clk) begin
    dip_q <= in_s2[7:0];
    if (in_s2[8] || in_s2[7:0] != dip_q) settle <= {SETTLE_BITS{1'b0}};
    else if (settle != {SETTLE_BITS{1'b1}}) settle <= settle + 1'b1;
    board_rst <= settle != {SETTLE_BITS{1'b1}};   // 2^20 cycles: 31 ms at 33 MHz
  end
  wire [11:0] node_id = {8'd0, dip_q[3:0]};
  wire [11:0] dim_m1 = {8'd0, dip_q[7:4]};
  wire chip_rst = board_rst || !core_lock;

  // ---- SERDES ----------------------------------------------------------------------------------
  wire [1:0]  dcu_tx_clk, dcu_rx_clk;
  wire [39:0] dcu_tx_bits, dcu_rx_bits;
  wire        dcu_tx_ready;
  wire [1:0]  dcu_rx_ready;
  wire [5:0]  lane_loopback;
  kolo_ecp5_dcu #(.LOC("DCU0"), .REFCK_MULT(REFCK_MULT), .REFCLK_EXT(1), .RESET_CYCLES(DCU_RESET_CYCLES),
                  .LOCK_CYCLES(DCU_LOCK_CYCLES)) u_dcu (
      .clk(clk), .rst(chip_rst), .refclk(1'b0), .refclk_p(refclk_p), .refclk_n(refclk_n),
      .hdin_p(sma_rx_p), .hdin_n(sma_rx_n), .hdout_p(sma_tx_p), .hdout_n(sma_tx_n),
      .tx_clk(dcu_tx_clk), .tx_bits(dcu_tx_bits), .rx_clk(dcu_rx_clk), .rx_bits(dcu_rx_bits),
      .loopback(lane_loopback[1:0]), .tx_ready(dcu_tx_ready), .rx_ready(dcu_rx_ready)
  );
  // the lanes' transmit clock: line rate / 32 = tx_clk * 20 / 32
  wire lane_tx_clk, lane_pll_unused, lane_lock;
  kolo_ecp5_pll #(.IN_KHZ(REFCK_MULT * 10000), .CLKI_DIV(8), .CLKFB_DIV(5),
                  .CLKOP_DIV(REFCK_MULT >= 16 ? 4 : 10), .CLKOS_DIV(REFCK_MULT >= 16 ? 4 : 10)) u_lane_pll (
      .clk_in(dcu_tx_clk[0]), .rst(!dcu_tx_ready), .clk_op(lane_tx_clk), .clk_os(lane_pll_unused),
      .lock(lane_lock)
  );

  // ---- the chip ----------------------------------------------------------------------------
  wire [6*7-1:0] lane_tx_sequence;
  wire [6*32-1:0] lane_tx_data;      // NL = 6 lanes: lane i at [32i +: 32] (ports 2..5 not built)
  wire [6*2-1:0]  lane_tx_header;
  wire [6*32-1:0] lane_rx_data;
  wire [6*2-1:0]  lane_rx_header;
  wire [5:0]     lane_rx_data_valid, lane_rx_header_valid, lane_rx_slip;
  wire [5:0]     link_up;
  wire           chip_ready, sp_heartbeat, sp_con_valid;
  wire [7:0]     sp_con_data;
  // the host's register port (kolo_uart_regs -> the chip's h_axil_*)
  wire           h_awvalid, h_awready, h_wvalid, h_wready, h_bvalid, h_arvalid, h_arready, h_rvalid;
  wire           h_bready, h_rready;
  wire [14:0]    h_awaddr, h_araddr;
  wire [31:0]    h_wdata, h_rdata;
  wire [3:0]     h_wstrb;
  wire [1:0]     h_bresp, h_rresp;
  // lanes reset: the DCU side not ready, or the lane clock's PLL not locked
  wire [5:0] lane_tx_rst = {4'b1111, {2{!dcu_tx_ready || !lane_lock}}};
  wire [5:0] lane_rx_rst = {4'b1111, !dcu_rx_ready[1], !dcu_rx_ready[0]};

  /* verilator lint_off PINCONNECTEMPTY */  // monitors and status: simulation and logic analysers
  kolo_chip #(
      .HOST_IF(1), .PORT_EN(6'b000011), .LANES(1), .GT_DATA_W(32), .GT_PAUSE_SEQ(32),
      .PCIE_ASYNC(0), .SP_INTERNAL(1), .SP_ASYNC(0),
      .SP_IMEM_INIT(SP_IMEM_INIT), .SP_DMEM_INIT(SP_DMEM_INIT)
  ) u_chip (
      .clk(clk), .rst(chip_rst), .node_id(node_id), .dim_m1(dim_m1), .ready(chip_ready),
      // no PCIe (HOST_IF = 1): the TLP streams and the configuration tied off
      .pcie_clk(1'b0), .pcie_rst(1'b1),
      .rx_tlp_valid(1'b0), .rx_tlp_ready(), .rx_tlp_hdr(128'd0), .rx_tlp_data(256'd0), .rx_tlp_sop(1'b0),
      .rx_tlp_eop(1'b0), .rx_tlp_dw_en(8'd0),
      .tx_tlp_valid(), .tx_tlp_ready(1'b1), .tx_tlp_hdr(), .tx_tlp_data(), .tx_tlp_sop(), .tx_tlp_eop(),
      .tx_tlp_dw_en(),
      .cfg_bar0(64'd0), .cfg_bar2(64'd0), .cfg_req_id(16'd0), .cfg_max_payload(3'd0), .cfg_max_read_req(3'd0),
      .cfg_bus_master(1'b0), .cfg_msi_addr(64'd0), .cfg_msi_data(16'd0), .cfg_msi_en(1'b0),
      .cfg_cpl_hdr(12'd0), .cfg_cpl_data(16'd0), .np_credit(),
      .rx_cpl_valid(1'b0), .rx_cpl_ready(), .rx_cpl_hdr(128'd0), .rx_cpl_data(256'd0),
      .rx_cpl_sop(1'b0), .rx_cpl_eop(1'b0), .rx_cpl_dw_en(8'd0),
      .h_axil_awvalid(h_awvalid), .h_axil_awready(h_awready), .h_axil_awaddr(h_awaddr),
      .h_axil_wvalid(h_wvalid), .h_axil_wready(h_wready), .h_axil_wdata(h_wdata), .h_axil_wstrb(h_wstrb),
      .h_axil_bvalid(h_bvalid), .h_axil_bready(h_bready), .h_axil_bresp(h_bresp),
      .h_axil_arvalid(h_arvalid), .h_axil_arready(h_arready), .h_axil_araddr(h_araddr),
      .h_axil_rvalid(h_rvalid), .h_axil_rready(h_rready), .h_axil_rdata(h_rdata), .h_axil_rresp(h_rresp),
      .lane_tx_clk({4'b0000, lane_tx_clk, lane_tx_clk}), .lane_tx_rst(lane_tx_rst),
      .lane_tx_sequence(lane_tx_sequence),
      .lane_rx_clk({4'b0000, dcu_rx_clk}), .lane_rx_rst(lane_rx_rst),
      .lane_loopback(lane_loopback),
      .lane_tx_data(lane_tx_data), .lane_tx_header(lane_tx_header),
      .lane_rx_data(lane_rx_data), .lane_rx_header(lane_rx_header),
      .lane_rx_data_valid(lane_rx_data_valid), .lane_rx_header_valid(lane_rx_header_valid),
      .lane_rx_slip(lane_rx_slip),
      .sp_clk(clk), .sp_console_valid(sp_con_valid), .sp_console_data(sp_con_data),
      .sp_console_ready(1'b1), .sp_heartbeat(sp_heartbeat),
      .s_axil_awvalid(1'b0), .s_axil_awready(), .s_axil_awaddr(15'd0), .s_axil_wvalid(1'b0),
      .s_axil_wready(), .s_axil_wdata(32'd0), .s_axil_wstrb(4'd0), .s_axil_bvalid(),
      .s_axil_bready(1'b1), .s_axil_bresp(), .s_axil_arvalid(1'b0), .s_axil_arready(),
      .s_axil_araddr(15'd0), .s_axil_rvalid(), .s_axil_rready(1'b1), .s_axil_rdata(),
      .s_axil_rresp(), .s_irq(),
      .link_up(link_up),
      .mon_inj_valid(), .mon_inj_flit(), .mon_ej_valid(), .mon_ej_flit(), .mon_out_valid(),
      .mon_out_flit(), .mon_out_sunk(), .mon_in_valid(), .mon_in_flit(), .mon_svc_wr(),
      .mon_svc_wr_addr(), .mon_svc_wr_data(), .stat_router_errors(), .stat_router_fault_drops(),
      .stat_link_state(), .stat_link_counters(), .stat_lane_reset(), .stat_ni(), .stat_ni_dbg(),
      .stat_pcie(), .stat_port_en(), .stat_e2e_inc()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- soft gearboxes and the DCU's bit streams, per channel ch = port p --------------------------
  wire [1:0] xing_drop, xing_starved;
  genvar ch;
  generate
    for (ch = 0; ch < 2; ch = ch + 1) begin : g_lane
      // transmit: gearbox at line rate / 32, then into the DCU's tx clock
      wire [31:0] tx_stream;
      wire        tx_rst_lane, tx_rst_dcu;
      kolo_reset_sync u_tx_rst_lane (.clk(lane_tx_clk), .rst_in(lane_tx_rst[ch]), .rst_out(tx_rst_lane));
      kolo_reset_sync u_tx_rst_dcu (.clk(dcu_tx_clk[ch]), .rst_in(lane_tx_rst[ch]), .rst_out(tx_rst_dcu));
      kolo_soft_gearbox_tx u_gb_tx (
          .clk(lane_tx_clk), .rst(tx_rst_lane),
          .gt_data(lane_tx_data[32*ch+:32]), .gt_header(lane_tx_header[2*ch+:2]),
          .gt_sequence(lane_tx_sequence[7*ch+:7]), .m_bits(tx_stream)
      );
      kolo_bits_xing #(.IN_W(32), .OUT_W(20)) u_xing (
          .in_clk(lane_tx_clk), .in_rst(tx_rst_lane), .in_bits(tx_stream), .in_drop(xing_drop[ch]),
          .out_clk(dcu_tx_clk[ch]), .out_rst(tx_rst_dcu), .out_bits(dcu_tx_bits[20*ch+:20]),
          .out_starved(xing_starved[ch])
      );
      // receive: gearbox in the recovered clock
      wire rx_rst_lane;
      kolo_reset_sync u_rx_rst (.clk(dcu_rx_clk[ch]), .rst_in(lane_rx_rst[ch]), .rst_out(rx_rst_lane));
      kolo_soft_gearbox_rx #(.IN_W(20)) u_gb_rx (
          .clk(dcu_rx_clk[ch]), .rst(rx_rst_lane), .s_bits(dcu_rx_bits[20*ch+:20]),
          .gt_slip(lane_rx_slip[ch]), .gt_data(lane_rx_data[32*ch+:32]),
          .gt_header(lane_rx_header[2*ch+:2]), .gt_data_valid(lane_rx_data_valid[ch]),
          .gt_header_valid(lane_rx_header_valid[ch])
      );
    end
  endgenerate
  // ports 2..5 are not built (PORT_EN): their lane inputs are tied off
  assign lane_rx_data[6*32-1:64] = {(4 * 32) {1'b0}};
  assign lane_rx_header[11:4] = 8'd0;
  assign lane_rx_data_valid[5:2] = 4'd0;
  assign lane_rx_header_valid[5:2] = 4'd0;

  // ---- host over the UART ----------------------------------------------------------------------
  wire        req_valid, req_ready, req_write, req_abandon, rsp_valid, rsp_err, tlp_drop;
  wire [31:0] req_addr, req_wdata, rsp_data;
  wire [7:0]  req_tag, rsp_tag;
  kolo_uart_host #(.CLK_HZ(CORE_KHZ * 1000), .BAUD(BAUD), .TIMEOUT(CORE_KHZ * 10)) u_uart (
      .clk(clk), .rst(chip_rst), .rxd(uart_rx), .txd(uart_tx),
      .m_req_valid(req_valid), .m_req_ready(req_ready), .m_req_write(req_write),
      .m_req_addr(req_addr), .m_req_wdata(req_wdata), .m_req_tag(req_tag),
      .m_req_abandon(req_abandon),
      .s_rsp_valid(rsp_valid), .s_rsp_err(rsp_err), .s_rsp_data(rsp_data), .s_rsp_tag(rsp_tag),
      .tlp_drop(tlp_drop), .s_con_valid(sp_con_valid), .s_con_data(sp_con_data)
  );
  // the bridge leaves reset with the chip's core (ready): no access reaches the
  // service block in its reset (one the host sends earlier times out and is resent)
  kolo_uart_regs #(.HOST_BASE(32'h8000), .ADDR_W(15)) u_regs (
      .clk(clk), .rst(chip_rst || !chip_ready),
      .s_req_valid(req_valid), .s_req_ready(req_ready), .s_req_write(req_write),
      .s_req_addr(req_addr), .s_req_wdata(req_wdata), .s_req_tag(req_tag),
      .s_req_abandon(req_abandon),
      .m_rsp_valid(rsp_valid), .m_rsp_err(rsp_err), .m_rsp_data(rsp_data), .m_rsp_tag(rsp_tag),
      .drop(tlp_drop),
      .m_axil_awvalid(h_awvalid), .m_axil_awready(h_awready), .m_axil_awaddr(h_awaddr),
      .m_axil_wvalid(h_wvalid), .m_axil_wready(h_wready), .m_axil_wdata(h_wdata), .m_axil_wstrb(h_wstrb),
      .m_axil_bvalid(h_bvalid), .m_axil_bready(h_bready), .m_axil_bresp(h_bresp),
      .m_axil_arvalid(h_arvalid), .m_axil_arready(h_arready), .m_axil_araddr(h_araddr),
      .m_axil_rvalid(h_rvalid), .m_axil_rready(h_rready), .m_axil_rdata(h_rdata), .m_axil_rresp(h_rresp)
  );

  // ---- LEDs ------------------------------------------------------------------------------------
  // UART activity: stretched so that a frame is visible (2^21 core cycles)
  reg [20:0] act;
  always @(posedge clk) act <= (!uart_rx || !uart_tx) ? 21'h1FFFFF : (act != 21'd0 ? act - 21'd1 : 21'd0);
  (* ASYNC_REG = "TRUE" *) reg [2:0] st_s1, st_s2;   // DCU status is in clk already; lane_lock is not
  always @(posedge clk) begin
    st_s1 <= {lane_lock, dcu_rx_ready};
    st_s2 <= st_s1;
  end
  wire [7:0] led = {chip_ready, act != 21'd0, st_s2[1], st_s2[0], dcu_tx_ready && st_s2[2],
                    link_up[1], link_up[0], sp_heartbeat};
  assign led_n = ~led;
  wire unused = &{1'b0, clk_100_unused, lane_pll_unused, link_up[5:2], lane_tx_sequence[41:14],
                  lane_tx_data[6*32-1:64], lane_tx_header[11:4], lane_rx_slip[5:2], lane_loopback[5:2],
                  xing_drop, xing_starved};
endmodule
`default_nettype wire
