`default_nettype none
// kolo_chip - one whole kolo node on one chip, vendor-neutral: the PCIe
// endpoint core (kolo_pcie_ep), the NI, the service block and BAR0 window
// (kolo_node; HOST_IF = 1: no endpoint and no NI, the host on the register
// port h_axil_*, the router's local port carrying MGMT only), the router
// (kolo_router), six network ports (kolo_chip_port: a kolo_link end, 1..4
// lanes, transceiver gearbox adapters, reset sequencing) and the service processor (kolo_sp running the firmware image)
// with the crossings between their clock domains. docs/chip.md describes the
// ports, parameters, clocks, resets and bring-up; a board top wraps it with
// the vendor's PCIe block (behind a shim of rtl/platform), transceivers and
// clocking.
//
// Clock domains and crossings (docs/chip.md 3; every crossing is a cell of
// rtl/common):
//   clk         core: NI, router, links' core side, service block
//   pcie_clk    the PCIe user clock: the TLP streams and the PCIe
//               configuration (PCIE_ASYNC = 1: kolo_fifo_async each way,
//               kolo_sync_word for the configuration; 0: pcie_clk is not used
//               and the TLP ports are in clk's domain)
//   sp_clk      the service processor (SP_ASYNC = 1: kolo_axil_cdc onto the
//               service block, kolo_sync_bit for its interrupt, a
//               kolo_sync_word for its fault reports; 0: sp_clk is not used)
//   lane_tx_clk[p], lane_rx_clk[p]   per port p: its lanes' TXUSRCLK2 and
//               RXUSRCLK2 (kolo_chip_port: kolo_link_phy's FIFOs)
// Resets: rst is the chip reset, asynchronous, active high (power-on, a
// button, clocks not yet locked); pcie_rst the PCIe block's user reset;
// lane_tx_rst[p] / lane_rx_rst[p] "this port's transceiver is not ready".
// Each group of domains joined by crossings is reset in rounds by
// kolo_reset_seq (all of its domains in reset at one of their own edges
// before any leaves), so no domain relies on another's reset overlapping it;
// every domain's reset is released synchronously (kolo_reset_sync). The core
// is held in reset RESET_CYCLES cycles after rst's release (the service
// block's straps need 40).
// Straps (quasi-static, core clock): node_id = {z, y, x}, dim_m1 = ring sizes
// minus one {z, y, x}; change them only in reset.
// Length (~815 lines): the top only wires cells, but it carries both host
// interfaces (HOST_IF 0: PCIe TLP streams and their crossings; 1: the
// register port), six ports' lanes and the processor's buses; each piece is
// already a cell of its own, and splitting the wiring would only move ports.
`include "kolo_sp_regs.vh"
module kolo_chip #(
    // torus and network
    parameter PORT_EN            = 63,         // network ports built: bit p for X+ X- Y+ Y- Z+ Z- (63: all)
    parameter LANES              = 1,          // lanes per port, 1..4
    parameter E2E_NODES          = 16,         // largest torus (nodes) end-to-end retransmission covers
    parameter VC_DEPTH           = 80,         // router local-port buffer per VC (flits): the NI's injection credits
    parameter ESC_SLOTS          = 3,          // router class-0 VC buffer of network ports, in maximum packets
    parameter ADAPT_DEPTH        = 128,        // router class-1 VC buffer of network ports, flits
    parameter LINK_TRAIN_BUDGET  = 100000,     // core cycles a link may train before it is declared down
    // transceivers
    parameter GT_DATA_W          = 32,         // gearbox interface: 32 (7-series) or 64 bits
    parameter GT_PAUSE_SEQ       = 32,         // the gearbox's pause sequence value (0..32)
    // host
    parameter HOST_IF            = 0,          // 0: PCIe (endpoint core, NI, BAR0 window); 1: the register
                                               // port h_axil_* only (no endpoint, no NI: a board without PCIe)
    parameter PCIE_ASYNC         = 1,          // 1: pcie_clk is its own clock domain (HOST_IF 0)
    // service processor
    parameter SP_INTERNAL        = 1,          // 1: kolo_sp inside; 0: an external processor on s_axil_*
    parameter SP_ASYNC           = 0,          // 1: the processor runs on sp_clk
    parameter SP_IMEM_BYTES      = `KOLO_SP_IMEM_BYTES_DEFAULT,  // kolo_sp_regs.toml (the RV32 image is linked for these)
    parameter SP_DMEM_BYTES      = `KOLO_SP_DMEM_BYTES_DEFAULT,
    parameter SP_IMEM_INIT       = "",         // firmware image ($readmemh, docs/cpu.md)
    parameter SP_DMEM_INIT       = "",
    // reset
    parameter RESET_CYCLES       = 64,         // core reset held after rst is released (>= 40)
    parameter NL                 = 6 * LANES   // lanes in all (port p's lane l is p*LANES+l)
) (
    // ---- clocks, resets, straps ----
    input  wire                    clk,
    input  wire                    rst,
    input  wire [11:0]             node_id,
    input  wire [11:0]             dim_m1,
    output wire                    ready,        // core out of reset (clk)
    // ---- PCIe: kolo_pcie_ep's TLP streams and configuration (pcie_clk, or clk) ----
    input  wire                    pcie_clk,
    input  wire                    pcie_rst,
    input  wire                    rx_tlp_valid,
    output wire                    rx_tlp_ready,
    input  wire [127:0]            rx_tlp_hdr,
    input  wire [255:0]            rx_tlp_data,
    input  wire                    rx_tlp_sop,
    input  wire                    rx_tlp_eop,
    input  wire [7:0]              rx_tlp_dw_en,
    input  wire                    rx_cpl_valid,       // completions on a stream of their own
    output wire                    rx_cpl_ready,       // (UltraScale RC; tied low by the shims
    input  wire [127:0]            rx_cpl_hdr,         // that deliver them on rx_tlp_*)
    input  wire [255:0]            rx_cpl_data,
    input  wire                    rx_cpl_sop,
    input  wire                    rx_cpl_eop,
    input  wire [7:0]              rx_cpl_dw_en,
    output wire                    np_credit,          // one pulse per host non-posted request the core can queue
    output wire                    tx_tlp_valid,
    input  wire                    tx_tlp_ready,
    output wire [127:0]            tx_tlp_hdr,
    output wire [255:0]            tx_tlp_data,
    output wire                    tx_tlp_sop,
    output wire                    tx_tlp_eop,
    output wire [7:0]              tx_tlp_dw_en,
    input  wire [63:0]             cfg_bar0,
    input  wire [63:0]             cfg_bar2,
    input  wire [15:0]             cfg_req_id,
    input  wire [2:0]              cfg_max_payload,
    input  wire [2:0]              cfg_max_read_req,
    input  wire                    cfg_bus_master,
    input  wire [63:0]             cfg_msi_addr,
    input  wire [15:0]             cfg_msi_data,
    input  wire                    cfg_msi_en,
    input  wire [11:0]             cfg_cpl_hdr,        // the block's completion buffer: headers,
    input  wire [15:0]             cfg_cpl_data,       // data credits of 16 bytes (quasi-static)
    // ---- the host's register port (HOST_IF = 1; clk): the service registers, offsets 0..0x7fff ----
    input  wire                    h_axil_awvalid,
    output wire                    h_axil_awready,
    input  wire [14:0]             h_axil_awaddr,
    input  wire                    h_axil_wvalid,
    output wire                    h_axil_wready,
    input  wire [31:0]             h_axil_wdata,
    input  wire [3:0]              h_axil_wstrb,
    output wire                    h_axil_bvalid,
    input  wire                    h_axil_bready,
    output wire [1:0]              h_axil_bresp,
    input  wire                    h_axil_arvalid,
    output wire                    h_axil_arready,
    input  wire [14:0]             h_axil_araddr,
    output wire                    h_axil_rvalid,
    input  wire                    h_axil_rready,
    output wire [31:0]             h_axil_rdata,
    output wire [1:0]              h_axil_rresp,
    // ---- lanes: per port p (p = 0..5) ----
    input  wire [5:0]              lane_tx_clk,
    input  wire [5:0]              lane_tx_rst,
    output wire [6*7-1:0]          lane_tx_sequence,   // TXSEQUENCE of port p's lanes, [7p +: 7]
    input  wire [5:0]              lane_rx_clk,
    input  wire [5:0]              lane_rx_rst,
    output wire [5:0]              lane_loopback,      // LINK_CTRL.LOOPBACK (clk): near-end PCS loopback
    // ---- lanes: per lane i = p*LANES + l ----
    output wire [NL*GT_DATA_W-1:0] lane_tx_data,
    output wire [2*NL-1:0]         lane_tx_header,
    input  wire [NL*GT_DATA_W-1:0] lane_rx_data,
    input  wire [2*NL-1:0]         lane_rx_header,
    input  wire [NL-1:0]           lane_rx_data_valid,
    input  wire [NL-1:0]           lane_rx_header_valid,
    output wire [NL-1:0]           lane_rx_slip,
    // ---- service processor (sp_clk, or clk) ----
    input  wire                    sp_clk,
    output wire                    sp_console_valid,
    output wire [7:0]              sp_console_data,
    input  wire                    sp_console_ready,
    output wire                    sp_heartbeat,
    // an external processor instead (SP_INTERNAL = 0): the service block's bus
    input  wire                    s_axil_awvalid,
    output wire                    s_axil_awready,
    input  wire [14:0]             s_axil_awaddr,
    input  wire                    s_axil_wvalid,
    output wire                    s_axil_wready,
    input  wire [31:0]             s_axil_wdata,
    input  wire [3:0]              s_axil_wstrb,
    output wire                    s_axil_bvalid,
    input  wire                    s_axil_bready,
    output wire [1:0]              s_axil_bresp,
    input  wire                    s_axil_arvalid,
    output wire                    s_axil_arready,
    input  wire [14:0]             s_axil_araddr,
    output wire                    s_axil_rvalid,
    input  wire                    s_axil_rready,
    output wire [31:0]             s_axil_rdata,
    output wire [1:0]              s_axil_rresp,
    output wire                    s_irq,
    // ---- status (clk) ----
    output wire [5:0]              link_up,            // LEDs: port p's link is up
    // ---- monitors (clk): simulation, logic analysers; leave open on a board ----
    output wire                    mon_inj_valid,      // NI -> router local port
    output wire [67:0]             mon_inj_flit,
    output wire                    mon_ej_valid,       // router -> NI
    output wire [67:0]             mon_ej_flit,
    output wire [5:0]              mon_out_valid,      // router -> link, port p at [68p +: 68]
    output wire [6*68-1:0]         mon_out_flit,
    output wire [5:0]              mon_out_sunk,       // ... a flit dropped at a down port
    output wire [5:0]              mon_in_valid,       // link -> router
    output wire [6*68-1:0]         mon_in_flit,
    output wire                    mon_svc_wr,         // the processor's write the service block executes...
    output wire [14:0]             mon_svc_wr_addr,    // ... (AW and W taken)
    output wire [31:0]             mon_svc_wr_data,
    output wire [63:0]             stat_router_errors,
    output wire [31:0]             stat_router_fault_drops,
    output wire [6*2-1:0]          stat_link_state,
    output wire [6*512-1:0]        stat_link_counters,
    output wire [5:0]              stat_lane_reset,    // port p's lanes are in a reset round
    output wire [6*64-1:0]         stat_ni,
    output wire [4:0]              stat_e2e_inc,       // end-to-end counter pulses (kolo_ni)
    output wire [84:0]             stat_ni_dbg,
    output wire [79:0]             stat_pcie,          // {bad_tlp, cpl_err, cpl_timeout, ca, ur}
    output wire [5:0]              stat_port_en        // RTR_PORT_EN & PORT_EN: ports in use
);
  `include "kolo_defs.vh"

  // ---- parameter limits -------------------------------------------------------------
  generate
    if (LANES < 1 || LANES > 4) begin : g_bad_lanes
      kolo_chip_PARAMETER_ERROR_LANES_1_to_4 u_error ();
    end
    if (RESET_CYCLES < 40) begin : g_bad_reset
      kolo_chip_PARAMETER_ERROR_RESET_CYCLES_at_least_40 u_error ();
    end
    if (NL != 6 * LANES) begin : g_bad_nl
      kolo_chip_PARAMETER_ERROR_NL_is_6_times_LANES u_error ();
    end
    if (HOST_IF != 0 && HOST_IF != 1) begin : g_bad_host_if
      kolo_chip_PARAMETER_ERROR_HOST_IF_0_or_1 u_error ();
    end
  endgenerate

  // ======================================================================================
  // Core reset: synchroniser, then held RESET_CYCLES cycles
  // ======================================================================================
  wire rst_sync;
  kolo_reset_sync u_rst_sync (
      .clk(clk),
      .rst_in(rst),
      .rst_out(rst_sync)
  );
  localparam integer RCW = $clog2(RESET_CYCLES + 1);
  localparam integer RESET_I = RESET_CYCLES;
  localparam [RCW-1:0] RESET_N = RESET_I[RCW-1:0];
  // power-up values: in reset from configuration (and from time 0 in simulation,
  // where the chip's assertions are checked whenever rst_core is low)
  reg [RCW-1:0] rst_cnt = {RCW{1'b0}};
  reg rst_core = 1'b1;
  always @(posedge clk) begin
    if (rst_sync) begin
      rst_cnt <= {RCW{1'b0}};
      rst_core <= 1'b1;
    end else begin
      if (rst_cnt != RESET_N) rst_cnt <= rst_cnt + 1'b1;
      rst_core <= rst_cnt != RESET_N;
    end
  end
  assign ready = !rst_core;

  // ======================================================================================
  // PCIe: TLP streams and configuration into the core clock
  // ======================================================================================
  // the endpoint core's user side (HOST_IF = 0)
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

  generate
    if (HOST_IF == 0) begin : g_pcie
      wire         ep_rx_valid, ep_rx_ready, ep_rx_sop, ep_rx_eop;
      wire [127:0] ep_rx_hdr;
      wire [255:0] ep_rx_data;
      wire [7:0]   ep_rx_dw_en;
      wire         ep_tx_valid, ep_tx_ready, ep_tx_sop, ep_tx_eop;
      wire [127:0] ep_tx_hdr;
      wire [255:0] ep_tx_data;
      wire [7:0]   ep_tx_dw_en;
      wire [63:0]  ep_bar0, ep_bar2, ep_msi_addr;
      wire [15:0]  ep_req_id, ep_msi_data;
      wire [2:0]   ep_mps, ep_mrrs;
      wire         ep_bus_master, ep_msi_en;
      wire         ep_cpl_valid, ep_cpl_ready, ep_cpl_sop, ep_cpl_eop;
      wire [127:0] ep_cpl_hdr;
      wire [255:0] ep_cpl_data;
      wire [7:0]   ep_cpl_dw_en;
      wire         ep_np_credit;
      wire [11:0]  ep_cpl_hdr_credits;
      wire [15:0]  ep_cpl_data_credits;
      localparam integer CFGW = 64 + 64 + 16 + 3 + 3 + 1 + 64 + 16 + 1 + 12 + 16;
      wire [CFGW-1:0] cfg_in = {cfg_bar0, cfg_bar2, cfg_req_id, cfg_max_payload, cfg_max_read_req,
                                cfg_bus_master, cfg_msi_addr, cfg_msi_data, cfg_msi_en, cfg_cpl_hdr, cfg_cpl_data};
      wire [CFGW-1:0] cfg_core;
      assign {ep_bar0, ep_bar2, ep_req_id, ep_mps, ep_mrrs, ep_bus_master, ep_msi_addr, ep_msi_data,
              ep_msi_en, ep_cpl_hdr_credits, ep_cpl_data_credits} = cfg_core;

      if (PCIE_ASYNC != 0) begin : g_pcie_async
        wire rst_pcie_core, rst_pcie;
        /* verilator lint_off PINCONNECTEMPTY */  // round status: not reported
        kolo_reset_seq #(.DOMAINS(1)) u_pcie_reset (
            .clk(clk), .rst_req(rst), .rst(rst_pcie_core),
            .dom_clk(pcie_clk), .dom_req(pcie_rst), .dom_rst(rst_pcie), .busy()
        );
        /* verilator lint_on PINCONNECTEMPTY */
        kolo_fifo_async #(.WIDTH(128 + 256 + 2 + 8), .ADDR_W(3)) u_rx_fifo (
            .wr_clk(pcie_clk), .wr_rst(rst_pcie),
            .in_valid(rx_tlp_valid), .in_ready(rx_tlp_ready),
            .in_data({rx_tlp_hdr, rx_tlp_data, rx_tlp_sop, rx_tlp_eop, rx_tlp_dw_en}),
            .rd_clk(clk), .rd_rst(rst_pcie_core),
            .out_valid(ep_rx_valid), .out_ready(ep_rx_ready),
            .out_data({ep_rx_hdr, ep_rx_data, ep_rx_sop, ep_rx_eop, ep_rx_dw_en})
        );
        kolo_fifo_async #(.WIDTH(128 + 256 + 2 + 8), .ADDR_W(3)) u_tx_fifo (
            .wr_clk(clk), .wr_rst(rst_pcie_core),
            .in_valid(ep_tx_valid), .in_ready(ep_tx_ready),
            .in_data({ep_tx_hdr, ep_tx_data, ep_tx_sop, ep_tx_eop, ep_tx_dw_en}),
            .rd_clk(pcie_clk), .rd_rst(rst_pcie),
            .out_valid(tx_tlp_valid), .out_ready(tx_tlp_ready),
            .out_data({tx_tlp_hdr, tx_tlp_data, tx_tlp_sop, tx_tlp_eop, tx_tlp_dw_en})
        );
        // completions: a FIFO of their own, so that they never wait behind requests
        kolo_fifo_async #(.WIDTH(128 + 256 + 2 + 8), .ADDR_W(3)) u_cpl_fifo (
            .wr_clk(pcie_clk), .wr_rst(rst_pcie),
            .in_valid(rx_cpl_valid), .in_ready(rx_cpl_ready),
            .in_data({rx_cpl_hdr, rx_cpl_data, rx_cpl_sop, rx_cpl_eop, rx_cpl_dw_en}),
            .rd_clk(clk), .rd_rst(rst_pcie_core),
            .out_valid(ep_cpl_valid), .out_ready(ep_cpl_ready),
            .out_data({ep_cpl_hdr, ep_cpl_data, ep_cpl_sop, ep_cpl_eop, ep_cpl_dw_en})
        );
        // non-posted credits: every pulse is one credit, none merged or lost, and
        // those a PCIe reset alone loses are given again (kolo_chip_np_credit)
        kolo_chip_np_credit #(.MAX_CREDITS(16)) u_np_credit (
            .clk(clk), .rst(rst_core), .rst_pcie_core(rst_pcie_core),
            .s_credit(ep_np_credit), .s_rx_take(ep_rx_valid && ep_rx_ready && ep_rx_sop),
            .s_rx_dw0(ep_rx_hdr[31:24]),
            .pcie_clk(pcie_clk), .rst_pcie(rst_pcie), .m_credit(np_credit)
        );
        kolo_sync_word #(.WIDTH(CFGW)) u_cfg_sync (
            .src_clk(pcie_clk), .src_rst(rst_pcie), .in(cfg_in),
            .dst_clk(clk), .dst_rst(rst_pcie_core), .out(cfg_core)
        );
      end else begin : g_pcie_sync
        wire unused_pcie = &{1'b0, pcie_clk, pcie_rst};
        assign ep_rx_valid = rx_tlp_valid;
        assign rx_tlp_ready = ep_rx_ready;
        assign ep_rx_hdr = rx_tlp_hdr;
        assign ep_rx_data = rx_tlp_data;
        assign ep_rx_sop = rx_tlp_sop;
        assign ep_rx_eop = rx_tlp_eop;
        assign ep_rx_dw_en = rx_tlp_dw_en;
        assign tx_tlp_valid = ep_tx_valid;
        assign ep_tx_ready = tx_tlp_ready;
        assign tx_tlp_hdr = ep_tx_hdr;
        assign tx_tlp_data = ep_tx_data;
        assign tx_tlp_sop = ep_tx_sop;
        assign tx_tlp_eop = ep_tx_eop;
        assign tx_tlp_dw_en = ep_tx_dw_en;
        assign ep_cpl_valid = rx_cpl_valid;
        assign rx_cpl_ready = ep_cpl_ready;
        assign ep_cpl_hdr = rx_cpl_hdr;
        assign ep_cpl_data = rx_cpl_data;
        assign ep_cpl_sop = rx_cpl_sop;
        assign ep_cpl_eop = rx_cpl_eop;
        assign ep_cpl_dw_en = rx_cpl_dw_en;
        assign np_credit = ep_np_credit;
        assign cfg_core = cfg_in;
      end

    // ======================================================================================
    // PCIe endpoint core
    // ======================================================================================

    /* verilator lint_off PINCONNECTEMPTY */  // tags in use: not reported
    kolo_pcie_ep u_ep (
        .clk(clk), .rst(rst_core),
        .rx_tlp_valid(ep_rx_valid), .rx_tlp_ready(ep_rx_ready), .rx_tlp_hdr(ep_rx_hdr),
        .rx_tlp_data(ep_rx_data), .rx_tlp_sop(ep_rx_sop), .rx_tlp_eop(ep_rx_eop), .rx_tlp_dw_en(ep_rx_dw_en),
        .rx_cpl_valid(ep_cpl_valid), .rx_cpl_ready(ep_cpl_ready), .rx_cpl_hdr(ep_cpl_hdr),
        .rx_cpl_data(ep_cpl_data), .rx_cpl_sop(ep_cpl_sop), .rx_cpl_eop(ep_cpl_eop),
        .rx_cpl_dw_en(ep_cpl_dw_en), .np_credit(ep_np_credit),
        .cfg_cpl_hdr(ep_cpl_hdr_credits), .cfg_cpl_data(ep_cpl_data_credits),
        .tx_tlp_valid(ep_tx_valid), .tx_tlp_ready(ep_tx_ready), .tx_tlp_hdr(ep_tx_hdr),
        .tx_tlp_data(ep_tx_data), .tx_tlp_sop(ep_tx_sop), .tx_tlp_eop(ep_tx_eop), .tx_tlp_dw_en(ep_tx_dw_en),
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
        .cfg_bar0(ep_bar0), .cfg_bar2(ep_bar2), .cfg_req_id(ep_req_id), .cfg_max_payload(ep_mps),
        .cfg_max_read_req(ep_mrrs), .cfg_bus_master(ep_bus_master), .cfg_msi_addr(ep_msi_addr),
        .cfg_msi_data(ep_msi_data), .cfg_msi_en(ep_msi_en),
        .stat_ur(stat_pcie[15:0]), .stat_ca(stat_pcie[31:16]), .stat_cpl_timeout(stat_pcie[47:32]),
        .stat_cpl_err(stat_pcie[63:48]), .stat_bad_tlp(stat_pcie[79:64]), .stat_tags_used()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    end else begin : g_no_pcie
      // no endpoint (HOST_IF = 1): the TLP streams are tied off, whatever comes is taken
      wire unused_pcie = &{1'b0, pcie_clk, pcie_rst, rx_tlp_valid, rx_tlp_hdr, rx_tlp_data, rx_tlp_sop,
                           rx_tlp_eop, rx_tlp_dw_en, rx_cpl_valid, rx_cpl_hdr, rx_cpl_data, rx_cpl_sop,
                           rx_cpl_eop, rx_cpl_dw_en, tx_tlp_ready, cfg_bar0, cfg_bar2, cfg_req_id,
                           cfg_max_payload, cfg_max_read_req, cfg_bus_master, cfg_msi_addr, cfg_msi_data,
                           cfg_msi_en, cfg_cpl_hdr, cfg_cpl_data, mmio_wr_ready, mmio_rd_ready,
                           mmio_rd_resp_valid, mmio_rd_resp_data, mmio_rd_resp_err, dma_rd_req_valid,
                           dma_rd_req_addr, dma_rd_req_len, dma_rd_req_id, dma_rd_ready, dma_wr_valid,
                           dma_wr_addr, dma_wr_len, dma_wr_data, dma_wr_last, msi_valid, msi_vector};
      assign rx_tlp_ready = 1'b1;
      assign rx_cpl_ready = 1'b1;
      assign np_credit = 1'b0;
      assign tx_tlp_valid = 1'b0;
      assign tx_tlp_hdr = 128'd0;
      assign tx_tlp_data = 256'd0;
      assign tx_tlp_sop = 1'b0;
      assign tx_tlp_eop = 1'b0;
      assign tx_tlp_dw_en = 8'd0;
      assign stat_pcie = 80'd0;
      assign mmio_wr_valid = 1'b0;
      assign mmio_wr_bar = 2'd0;
      assign mmio_wr_addr = 32'd0;
      assign mmio_wr_data = 512'd0;
      assign mmio_wr_strb = 64'd0;
      assign mmio_rd_valid = 1'b0;
      assign mmio_rd_bar = 2'd0;
      assign mmio_rd_addr = 32'd0;
      assign mmio_rd_len = 4'd0;
      assign mmio_rd_resp_ready = 1'b1;
      assign dma_rd_req_ready = 1'b0;
      assign dma_rd_valid = 1'b0;
      assign dma_rd_data = 256'd0;
      assign dma_rd_id = 8'd0;
      assign dma_rd_last = 1'b0;
      assign dma_rd_err = 1'b0;
      assign dma_wr_ready = 1'b0;
      assign msi_ready = 1'b0;
    end
  endgenerate

  // ======================================================================================
  // NI, service block, BAR0 window
  // ======================================================================================
  wire        inj_valid, inj_credit_valid, ej_valid, ej_credit_valid;
  wire [67:0] inj_flit, ej_flit;
  wire [1:0]  inj_credit_vc, ej_credit_vc;
  // the service block's processor port, in the core clock
  wire        c_awvalid, c_awready, c_wvalid, c_wready, c_bvalid, c_bready;
  wire        c_arvalid, c_arready, c_rvalid, c_rready;
  wire [14:0] c_awaddr, c_araddr;
  wire [31:0] c_wdata, c_rdata;
  wire [3:0]  c_wstrb;
  wire [1:0]  c_bresp, c_rresp;
  wire        svc_irq;
  // ports and router, as the service block sees them
  wire [5:0]      svc_link_up, svc_peer_valid, svc_crc_err, svc_replay, svc_tx_frame, svc_rx_frame;
  wire [6*12-1:0] svc_peer_id;
  wire [6*3-1:0]  svc_peer_port;
  wire [5:0]      link_enable, link_loopback, svc_port_en, port_down;
  wire [7*32-1:0] rtr_out_flits;
  wire            sp_fault;        // the service processor's fault pulse, in clk's domain
  wire [3:0]      sp_fault_cause;
  wire [31:0]     sp_fault_pc;

  /* verilator lint_off PINCONNECTEMPTY */  // the router's drop counters by kind: in stat_errors
  kolo_node #(
      .NI_EN(HOST_IF == 0 ? 1 : 0),
      .INJ_CREDITS(VC_DEPTH),
      .E2E_NODES(E2E_NODES)
  ) u_node (
      .clk(clk), .rst(rst_core), .node_id(node_id), .dim_m1(dim_m1),
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
      .inj_valid(inj_valid), .inj_flit(inj_flit), .inj_credit_valid(inj_credit_valid),
      .inj_credit_vc(inj_credit_vc), .ej_valid(ej_valid), .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid), .ej_credit_vc(ej_credit_vc),
      .s_axil_awvalid(c_awvalid), .s_axil_awready(c_awready), .s_axil_awaddr(c_awaddr),
      .s_axil_wvalid(c_wvalid), .s_axil_wready(c_wready), .s_axil_wdata(c_wdata), .s_axil_wstrb(c_wstrb),
      .s_axil_bvalid(c_bvalid), .s_axil_bready(c_bready), .s_axil_bresp(c_bresp),
      .s_axil_arvalid(c_arvalid), .s_axil_arready(c_arready), .s_axil_araddr(c_araddr),
      .s_axil_rvalid(c_rvalid), .s_axil_rready(c_rready), .s_axil_rdata(c_rdata), .s_axil_rresp(c_rresp),
      .irq(svc_irq),
      .h_axil_awvalid(h_axil_awvalid), .h_axil_awready(h_axil_awready), .h_axil_awaddr(h_axil_awaddr),
      .h_axil_wvalid(h_axil_wvalid), .h_axil_wready(h_axil_wready), .h_axil_wdata(h_axil_wdata),
      .h_axil_wstrb(h_axil_wstrb), .h_axil_bvalid(h_axil_bvalid), .h_axil_bready(h_axil_bready),
      .h_axil_bresp(h_axil_bresp), .h_axil_arvalid(h_axil_arvalid), .h_axil_arready(h_axil_arready),
      .h_axil_araddr(h_axil_araddr), .h_axil_rvalid(h_axil_rvalid), .h_axil_rready(h_axil_rready),
      .h_axil_rdata(h_axil_rdata), .h_axil_rresp(h_axil_rresp),
      .sp_fault(sp_fault), .sp_fault_cause(sp_fault_cause), .sp_fault_pc(sp_fault_pc),
      .link_up(svc_link_up), .link_peer_valid(svc_peer_valid), .link_peer_id(svc_peer_id),
      .link_peer_port(svc_peer_port), .link_crc_err(svc_crc_err), .link_replay(svc_replay),
      .link_tx_frame(svc_tx_frame), .link_rx_frame(svc_rx_frame),
      .link_enable(link_enable), .link_loopback(link_loopback),
      .rtr_port_down(port_down), .rtr_drop_route({16'd0, stat_router_errors[63:48]}),
      .rtr_drop_bad({16'd0, stat_router_errors[47:32]} + {16'd0, stat_router_errors[31:16]} +
                    {16'd0, stat_router_errors[15:0]}),
      .rtr_fault_drops(stat_router_fault_drops), .rtr_out_flits(rtr_out_flits), .port_en(svc_port_en),
      .stat_counters(stat_ni), .stat_e2e_inc(stat_e2e_inc), .dbg_state(stat_ni_dbg)
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign mon_svc_wr = c_awvalid && c_awready;
  assign mon_svc_wr_addr = c_awaddr;
  assign mon_svc_wr_data = c_wdata;

  // ======================================================================================
  // Router
  // ======================================================================================
  // A dimension of size 1 has no links: its ports are never in use.
  wire [5:0] dims_present = {{2{dim_m1[11:8] != 4'd0}}, {2{dim_m1[7:4] != 4'd0}}, {2{dim_m1[3:0] != 4'd0}}};
  localparam integer PORT_EN_I = PORT_EN;
  localparam [5:0] PORTS_BUILT = PORT_EN_I[5:0];
  wire [5:0] port_en = PORTS_BUILT & svc_port_en & dims_present;
  assign stat_port_en = port_en;
  wire [6:0]      r_in_valid, r_in_credit_valid, r_out_valid, r_out_sunk, r_out_credit_valid;
  wire [7*68-1:0] r_in_flit, r_out_flit;
  wire [7*2-1:0]  r_in_credit_vc, r_out_credit_vc;
  /* verilator lint_off PINCONNECTEMPTY */  // buffer occupancy: debug of tb/torus only
  // The links' credits are the neighbour router's network-port buffer (as in kolo_torus).
  localparam integer ESC_DEPTH = ESC_SLOTS * 34;
  localparam integer NET_DEPTH = (ESC_DEPTH > ADAPT_DEPTH) ? ESC_DEPTH : ADAPT_DEPTH;
  // the links' transmit buffer per VC: a power of two holding NET_DEPTH flits (the router
  // limits its buffers to 255 flits)
  localparam integer LINK_VC_BUF = (NET_DEPTH > 128) ? 256 : 128;
  kolo_router #(
      .ESC_SLOTS(ESC_SLOTS),
      .ADAPT_DEPTH(ADAPT_DEPTH),
      .LOCAL_DEPTH(VC_DEPTH),
      .EJECT_CREDITS(64)
  ) u_router (
      .clk(clk), .rst(rst_core),
      .cfg_node_id(node_id), .cfg_dim_m1(dim_m1), .cfg_port_en(port_en),
      .port_down(port_down | ~port_en),
      .in_valid(r_in_valid), .in_flit(r_in_flit),
      .in_credit_valid(r_in_credit_valid), .in_credit_vc(r_in_credit_vc),
      .out_valid(r_out_valid), .out_flit(r_out_flit), .out_sunk(r_out_sunk),
      .out_credit_valid(r_out_credit_valid), .out_credit_vc(r_out_credit_vc),
      .stat_errors(stat_router_errors), .stat_out_flits(rtr_out_flits),
      .stat_fault_drops(stat_router_fault_drops),
      .dbg_vc_occ(), .dbg_vc_route()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // local port: the NI
  assign r_in_valid[KOLO_PORT_LOCAL] = inj_valid;
  assign r_in_flit[KOLO_PORT_LOCAL*68+:68] = inj_flit;
  assign inj_credit_valid = r_in_credit_valid[KOLO_PORT_LOCAL];
  assign inj_credit_vc = r_in_credit_vc[KOLO_PORT_LOCAL*2+:2];
  assign ej_valid = r_out_valid[KOLO_PORT_LOCAL];
  assign ej_flit = r_out_flit[KOLO_PORT_LOCAL*68+:68];
  assign r_out_credit_valid[KOLO_PORT_LOCAL] = ej_credit_valid;
  assign r_out_credit_vc[KOLO_PORT_LOCAL*2+:2] = ej_credit_vc;
  wire unused_local_sunk = &{1'b0, r_out_sunk[KOLO_PORT_LOCAL]};
  assign mon_inj_valid = inj_valid;
  assign mon_inj_flit = inj_flit;
  assign mon_ej_valid = ej_valid;
  assign mon_ej_flit = ej_flit;
  assign mon_out_valid = r_out_valid[5:0];
  assign mon_out_flit = r_out_flit[6*68-1:0];
  assign mon_out_sunk = r_out_sunk[5:0];
  assign mon_in_valid = r_in_valid[5:0];
  assign mon_in_flit = r_in_flit[6*68-1:0];

  // ======================================================================================
  // Network ports
  // ======================================================================================
  genvar p;
  generate
    for (p = 0; p < 6; p = p + 1) begin : g_port
      if (PORTS_BUILT[p]) begin : g_on
        kolo_chip_port #(
            .PORT(p),
            .LANES(LANES),
            .DATA_W(GT_DATA_W),
            .PAUSE_SEQ(GT_PAUSE_SEQ),
            .VC_BUF(LINK_VC_BUF),
            .OUT_CREDITS(NET_DEPTH),
            .TRAIN_BUDGET(LINK_TRAIN_BUDGET)
        ) u_port (
            .clk(clk), .rst(rst_core), .node_id(node_id), .dim_m1(dim_m1),
            .tx_valid(r_out_valid[p]), .tx_flit(r_out_flit[p*68+:68]),
            .tx_credit_valid(r_out_credit_valid[p]), .tx_credit_vc(r_out_credit_vc[p*2+:2]),
            .rx_valid(r_in_valid[p]), .rx_flit(r_in_flit[p*68+:68]),
            .rx_credit_valid(r_in_credit_valid[p]), .rx_credit_vc(r_in_credit_vc[p*2+:2]),
            .enable(link_enable[p] && port_en[p]), .loopback(link_loopback[p]),
            .down(port_down[p]),
            .svc_up(svc_link_up[p]), .svc_peer_valid(svc_peer_valid[p]),
            .svc_peer_id(svc_peer_id[p*12+:12]), .svc_peer_port(svc_peer_port[p*3+:3]),
            .svc_crc_err(svc_crc_err[p]), .svc_replay(svc_replay[p]),
            .svc_tx_frame(svc_tx_frame[p]), .svc_rx_frame(svc_rx_frame[p]),
            .stat_state(stat_link_state[p*2+:2]), .stat_counters(stat_link_counters[p*512+:512]),
            .stat_lane_reset(stat_lane_reset[p]),
            .tx_clk(lane_tx_clk[p]), .tx_rst(lane_tx_rst[p]),
            .gt_tx_sequence(lane_tx_sequence[p*7+:7]),
            .gt_tx_data(lane_tx_data[p*LANES*GT_DATA_W+:LANES*GT_DATA_W]),
            .gt_tx_header(lane_tx_header[p*LANES*2+:LANES*2]),
            .rx_clk(lane_rx_clk[p]), .rx_rst(lane_rx_rst[p]),
            .gt_rx_data(lane_rx_data[p*LANES*GT_DATA_W+:LANES*GT_DATA_W]),
            .gt_rx_header(lane_rx_header[p*LANES*2+:LANES*2]),
            .gt_rx_data_valid(lane_rx_data_valid[p*LANES+:LANES]),
            .gt_rx_header_valid(lane_rx_header_valid[p*LANES+:LANES]),
            .gt_rx_slip(lane_rx_slip[p*LANES+:LANES]),
            .gt_loopback(lane_loopback[p])
        );
        assign link_up[p] = stat_link_state[p*2+:2] == 2'd2;
      end else begin : g_off
        // no link: the router drops what is routed there; the service block sees it down
        wire unused_lanes = &{1'b0, lane_tx_clk[p], lane_tx_rst[p], lane_rx_clk[p], lane_rx_rst[p],
                              lane_rx_data[p*LANES*GT_DATA_W+:LANES*GT_DATA_W],
                              lane_rx_header[p*LANES*2+:LANES*2], lane_rx_data_valid[p*LANES+:LANES],
                              lane_rx_header_valid[p*LANES+:LANES], link_enable[p], link_loopback[p],
                              r_out_valid[p], r_out_flit[p*68+:68], r_in_credit_valid[p],
                              r_in_credit_vc[p*2+:2]};
        assign r_in_valid[p] = 1'b0;
        assign r_in_flit[p*68+:68] = 68'd0;
        assign r_out_credit_valid[p] = 1'b0;
        assign r_out_credit_vc[p*2+:2] = 2'd0;
        assign port_down[p] = 1'b1;
        assign svc_link_up[p] = 1'b0;
        assign svc_peer_valid[p] = 1'b0;
        assign svc_peer_id[p*12+:12] = 12'd0;
        assign svc_peer_port[p*3+:3] = 3'd0;
        assign svc_crc_err[p] = 1'b0;
        assign svc_replay[p] = 1'b0;
        assign svc_tx_frame[p] = 1'b0;
        assign svc_rx_frame[p] = 1'b0;
        assign stat_link_state[p*2+:2] = 2'd0;
        assign stat_link_counters[p*512+:512] = 512'd0;
        assign stat_lane_reset[p] = 1'b0;
        assign lane_tx_sequence[p*7+:7] = 7'd0;
        assign lane_tx_data[p*LANES*GT_DATA_W+:LANES*GT_DATA_W] = {LANES*GT_DATA_W{1'b0}};
        assign lane_tx_header[p*LANES*2+:LANES*2] = {LANES*2{1'b0}};
        assign lane_rx_slip[p*LANES+:LANES] = {LANES{1'b0}};
        assign lane_loopback[p] = 1'b0;
        assign link_up[p] = 1'b0;
      end
    end
  endgenerate

  // ======================================================================================
  // Service processor
  // ======================================================================================
  // the processor's bus, in its own clock domain
  wire        p_awvalid, p_awready, p_wvalid, p_wready, p_bvalid, p_bready;
  wire        p_arvalid, p_arready, p_rvalid, p_rready;
  wire [14:0] p_awaddr, p_araddr;
  wire [31:0] p_wdata, p_rdata;
  wire [3:0]  p_wstrb;
  wire [1:0]  p_bresp, p_rresp;
  wire        p_irq;
  wire        p_fault;        // kolo_sp's fault pulse (bus error, illegal instruction, ...)
  wire [3:0]  p_fault_cause;
  wire [31:0] p_fault_pc;
  wire        rst_sp;

  generate
    if (SP_ASYNC != 0) begin : g_sp_async
      wire rst_sp_core;
      /* verilator lint_off PINCONNECTEMPTY */
      kolo_reset_seq #(.DOMAINS(1)) u_sp_reset (
          .clk(clk), .rst_req(rst), .rst(rst_sp_core),
          .dom_clk(sp_clk), .dom_req(1'b0), .dom_rst(rst_sp), .busy()
      );
      /* verilator lint_on PINCONNECTEMPTY */
      kolo_axil_cdc #(.ADDR_W(15)) u_bus_cdc (
          .s_clk(sp_clk), .s_rst(rst_sp),
          .s_axil_awvalid(p_awvalid), .s_axil_awready(p_awready), .s_axil_awaddr(p_awaddr),
          .s_axil_wvalid(p_wvalid), .s_axil_wready(p_wready), .s_axil_wdata(p_wdata), .s_axil_wstrb(p_wstrb),
          .s_axil_bvalid(p_bvalid), .s_axil_bready(p_bready), .s_axil_bresp(p_bresp),
          .s_axil_arvalid(p_arvalid), .s_axil_arready(p_arready), .s_axil_araddr(p_araddr),
          .s_axil_rvalid(p_rvalid), .s_axil_rready(p_rready), .s_axil_rdata(p_rdata), .s_axil_rresp(p_rresp),
          .m_clk(clk), .m_rst(rst_sp_core),
          .m_axil_awvalid(c_awvalid), .m_axil_awready(c_awready), .m_axil_awaddr(c_awaddr),
          .m_axil_wvalid(c_wvalid), .m_axil_wready(c_wready), .m_axil_wdata(c_wdata), .m_axil_wstrb(c_wstrb),
          .m_axil_bvalid(c_bvalid), .m_axil_bready(c_bready), .m_axil_bresp(c_bresp),
          .m_axil_arvalid(c_arvalid), .m_axil_arready(c_arready), .m_axil_araddr(c_araddr),
          .m_axil_rvalid(c_rvalid), .m_axil_rready(c_rready), .m_axil_rdata(c_rdata), .m_axil_rresp(c_rresp)
      );
      kolo_sync_bit #(.WIDTH(1), .STAGES(2)) u_irq_sync (
          .clk(sp_clk),
          .in (svc_irq),
          .out(p_irq)
      );
      // Faults cross as one word {count, cause, pc} (kolo_sync_word: always
      // whole); each change of the count is one fault pulse in clk's domain,
      // with the cause and pc of the last fault sent. Faults closer together
      // than one transfer (about 3 clk + 3 sp_clk edges) merge into one.
      reg  [2:0]  f_count;
      reg  [35:0] f_info;
      wire [38:0] f_word;
      always @(posedge sp_clk) begin
        if (rst_sp) begin
          f_count <= 3'd0;
          f_info  <= 36'd0;
        end else if (p_fault) begin
          f_count <= f_count + 3'd1;
          f_info  <= {p_fault_cause, p_fault_pc};
        end
      end
      kolo_sync_word #(.WIDTH(39)) u_fault_sync (
          .src_clk(sp_clk), .src_rst(rst_sp), .in({f_count, f_info}),
          .dst_clk(clk), .dst_rst(rst_sp_core), .out(f_word)
      );
      reg [2:0]  f_seen;
      reg        f_pulse;
      reg [35:0] f_out;
      always @(posedge clk) begin
        if (rst_sp_core) begin
          f_seen  <= 3'd0;
          f_pulse <= 1'b0;
        end else begin
          f_seen  <= f_word[38:36];
          f_pulse <= f_word[38:36] != f_seen;
        end
        f_out <= f_word[35:0];
      end
      assign sp_fault = f_pulse;
      assign sp_fault_cause = f_out[35:32];
      assign sp_fault_pc = f_out[31:0];
    end else begin : g_sp_sync
      wire unused_sp_clk = &{1'b0, sp_clk};
      assign rst_sp = rst_core;
      assign sp_fault = p_fault;
      assign sp_fault_cause = p_fault_cause;
      assign sp_fault_pc = p_fault_pc;
      assign c_awvalid = p_awvalid;
      assign p_awready = c_awready;
      assign c_awaddr = p_awaddr;
      assign c_wvalid = p_wvalid;
      assign p_wready = c_wready;
      assign c_wdata = p_wdata;
      assign c_wstrb = p_wstrb;
      assign p_bvalid = c_bvalid;
      assign c_bready = p_bready;
      assign p_bresp = c_bresp;
      assign c_arvalid = p_arvalid;
      assign p_arready = c_arready;
      assign c_araddr = p_araddr;
      assign p_rvalid = c_rvalid;
      assign c_rready = p_rready;
      assign p_rdata = c_rdata;
      assign p_rresp = c_rresp;
      assign p_irq = svc_irq;
    end

    if (SP_INTERNAL != 0) begin : g_sp
      wire unused_ext = &{1'b0, s_axil_awvalid, s_axil_awaddr, s_axil_wvalid, s_axil_wdata, s_axil_wstrb,
                          s_axil_bready, s_axil_arvalid, s_axil_araddr, s_axil_rready};
      assign s_axil_awready = 1'b0;
      assign s_axil_wready = 1'b0;
      assign s_axil_bvalid = 1'b0;
      assign s_axil_bresp = 2'b00;
      assign s_axil_arready = 1'b0;
      assign s_axil_rvalid = 1'b0;
      assign s_axil_rdata = 32'd0;
      assign s_axil_rresp = 2'b00;
      assign s_irq = 1'b0;
      /* verilator lint_off PINCONNECTEMPTY */  // trace: tests only
      wire sp_domain_clk = (SP_ASYNC != 0) ? sp_clk : clk;
      kolo_sp #(
          .IMEM_BYTES(SP_IMEM_BYTES),
          .DMEM_BYTES(SP_DMEM_BYTES),
          .IMEM_INIT(SP_IMEM_INIT),
          .DMEM_INIT(SP_DMEM_INIT),
          .ADDR_W(15)
      ) u_sp (
          .clk(sp_domain_clk), .rst(rst_sp),
          .m_axil_awvalid(p_awvalid), .m_axil_awready(p_awready), .m_axil_awaddr(p_awaddr),
          .m_axil_wvalid(p_wvalid), .m_axil_wready(p_wready), .m_axil_wdata(p_wdata), .m_axil_wstrb(p_wstrb),
          .m_axil_bvalid(p_bvalid), .m_axil_bready(p_bready), .m_axil_bresp(p_bresp),
          .m_axil_arvalid(p_arvalid), .m_axil_arready(p_arready), .m_axil_araddr(p_araddr),
          .m_axil_rvalid(p_rvalid), .m_axil_rready(p_rready), .m_axil_rdata(p_rdata), .m_axil_rresp(p_rresp),
          .irq(p_irq),
          .m_console_valid(sp_console_valid), .m_console_data(sp_console_data),
          .m_console_ready(sp_console_ready),
          .heartbeat(sp_heartbeat),
          .fault(p_fault), .fault_cause(p_fault_cause), .fault_pc(p_fault_pc),
          .trace_valid(), .trace_trap(), .trace_cause(), .trace_pc(), .trace_insn(), .trace_rd(),
          .trace_rd_data(), .trace_mem_addr(), .trace_mem_wstrb(), .trace_mem_wdata()
      );
      /* verilator lint_on PINCONNECTEMPTY */
    end else begin : g_sp_ext
      wire unused_sp = &{1'b0, sp_console_ready, rst_sp};
      assign p_fault = 1'b0;  // an external processor reports its faults itself
      assign p_fault_cause = 4'd0;
      assign p_fault_pc = 32'd0;
      assign sp_console_valid = 1'b0;
      assign sp_console_data = 8'd0;
      assign sp_heartbeat = 1'b0;
      assign p_awvalid = s_axil_awvalid;
      assign s_axil_awready = p_awready;
      assign p_awaddr = s_axil_awaddr;
      assign p_wvalid = s_axil_wvalid;
      assign s_axil_wready = p_wready;
      assign p_wdata = s_axil_wdata;
      assign p_wstrb = s_axil_wstrb;
      assign s_axil_bvalid = p_bvalid;
      assign p_bready = s_axil_bready;
      assign s_axil_bresp = p_bresp;
      assign p_arvalid = s_axil_arvalid;
      assign s_axil_arready = p_arready;
      assign p_araddr = s_axil_araddr;
      assign s_axil_rvalid = p_rvalid;
      assign p_rready = s_axil_rready;
      assign s_axil_rdata = p_rdata;
      assign s_axil_rresp = p_rresp;
      assign s_irq = p_irq;
    end
  endgenerate
endmodule
`default_nettype wire
