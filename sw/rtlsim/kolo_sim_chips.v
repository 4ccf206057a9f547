`default_nettype none
// kolo_sim_chips - N kolo_chips for simulation (tb/chip, kolo-sim --net=chip):
// every chip's ports brought out as flat vectors, chip n = x + DIM_X*(y +
// DIM_Y*z) with node id {z, y, x} and the torus' ring sizes as straps. Nothing
// joins the chips here: the harness carries each chip's lane words to its
// neighbours' lanes (through its lane model) and plays every chip's host
// (a PCIe root complex per chip) and, with SP_INTERNAL 0, its service
// processor. Only the ports of dimensions of size > 1 are built (PORT_EN).
// Each chip is a kolo_sim_chip (a Verilator hier_block: compiled once).
// Chip n's port p is index n*6+p of the per-port vectors, its lane l of port
// p index (n*6+p)*LANES+l of the per-lane vectors. Parameters come from
// macros (Verilator 5.006 cannot take -G with --hierarchical): KOLO_SIM_DIM_X/Y/Z,
// KOLO_CHIP_LANES, KOLO_CHIP_GT_DATA_W, KOLO_CHIP_PCIE_ASYNC,
// KOLO_CHIP_SP_INTERNAL, KOLO_CHIP_SP_ASYNC, KOLO_CHIP_TRAIN_BUDGET,
// KOLO_CHIP_FW_IMEM / KOLO_CHIP_FW_DMEM (firmware image files).
`include "kolo_sim_chip_cfg.vh"
module kolo_sim_chips #(
    parameter DIM_X = `KOLO_SIM_DIM_X,
    parameter DIM_Y = `KOLO_SIM_DIM_Y,
    parameter DIM_Z = `KOLO_SIM_DIM_Z,
    parameter LANES = `KOLO_CHIP_LANES,
    parameter GT_W = `KOLO_CHIP_GT_DATA_W,
    parameter N = DIM_X * DIM_Y * DIM_Z,
    parameter NP = N * 6,           // ports
    parameter NL = N * 6 * LANES    // lanes
) (
    input  wire [N-1:0]         clk,
    input  wire [N-1:0]         rst,
    output wire [N-1:0]         ready,
    // PCIe (per chip)
    input  wire [N-1:0]         pcie_clk,
    input  wire [N-1:0]         pcie_rst,
    input  wire [N-1:0]         rx_tlp_valid,
    output wire [N-1:0]         rx_tlp_ready,
    input  wire [N*128-1:0]     rx_tlp_hdr,
    input  wire [N*256-1:0]     rx_tlp_data,
    input  wire [N-1:0]         rx_tlp_sop,
    input  wire [N-1:0]         rx_tlp_eop,
    input  wire [N*8-1:0]       rx_tlp_dw_en,
    output wire [N-1:0]         tx_tlp_valid,
    input  wire [N-1:0]         tx_tlp_ready,
    output wire [N*128-1:0]     tx_tlp_hdr,
    output wire [N*256-1:0]     tx_tlp_data,
    output wire [N-1:0]         tx_tlp_sop,
    output wire [N-1:0]         tx_tlp_eop,
    output wire [N*8-1:0]       tx_tlp_dw_en,
    input  wire [N-1:0]         rx_cpl_valid,       // completions on a stream of their own
    output wire [N-1:0]         rx_cpl_ready,
    input  wire [N*128-1:0]     rx_cpl_hdr,
    input  wire [N*256-1:0]     rx_cpl_data,
    input  wire [N-1:0]         rx_cpl_sop,
    input  wire [N-1:0]         rx_cpl_eop,
    input  wire [N*8-1:0]       rx_cpl_dw_en,
    output wire [N-1:0]         np_credit,
    input  wire [N*12-1:0]      cfg_cpl_hdr,        // each chip's completion buffer
    input  wire [N*16-1:0]      cfg_cpl_data,
    input  wire [63:0]          cfg_bar0,
    input  wire [63:0]          cfg_bar2,
    input  wire [15:0]          cfg_req_id,
    input  wire [2:0]           cfg_max_payload,
    input  wire [2:0]           cfg_max_read_req,
    input  wire                 cfg_bus_master,
    input  wire [63:0]          cfg_msi_addr,
    input  wire [15:0]          cfg_msi_data,
    input  wire                 cfg_msi_en,
    // lanes (per port / per lane)
    input  wire [NP-1:0]        lane_tx_clk,
    input  wire [NP-1:0]        lane_tx_rst,
    output wire [NP*7-1:0]      lane_tx_sequence,
    input  wire [NP-1:0]        lane_rx_clk,
    input  wire [NP-1:0]        lane_rx_rst,
    output wire [NP-1:0]        lane_loopback,
    output wire [NL*GT_W-1:0]   lane_tx_data,
    output wire [NL*2-1:0]      lane_tx_header,
    input  wire [NL*GT_W-1:0]   lane_rx_data,
    input  wire [NL*2-1:0]      lane_rx_header,
    input  wire [NL-1:0]        lane_rx_data_valid,
    input  wire [NL-1:0]        lane_rx_header_valid,
    output wire [NL-1:0]        lane_rx_slip,
    // service processor (per chip)
    input  wire [N-1:0]         sp_clk,
    output wire [N-1:0]         sp_console_valid,
    output wire [N*8-1:0]       sp_console_data,
    input  wire [N-1:0]         sp_console_ready,
    output wire [N-1:0]         sp_heartbeat,
    input  wire [N-1:0]         s_axil_awvalid,
    output wire [N-1:0]         s_axil_awready,
    input  wire [N*15-1:0]      s_axil_awaddr,
    input  wire [N-1:0]         s_axil_wvalid,
    output wire [N-1:0]         s_axil_wready,
    input  wire [N*32-1:0]      s_axil_wdata,
    input  wire [N*4-1:0]       s_axil_wstrb,
    output wire [N-1:0]         s_axil_bvalid,
    input  wire [N-1:0]         s_axil_bready,
    output wire [N*2-1:0]       s_axil_bresp,
    input  wire [N-1:0]         s_axil_arvalid,
    output wire [N-1:0]         s_axil_arready,
    input  wire [N*15-1:0]      s_axil_araddr,
    output wire [N-1:0]         s_axil_rvalid,
    input  wire [N-1:0]         s_axil_rready,
    output wire [N*32-1:0]      s_axil_rdata,
    output wire [N*2-1:0]       s_axil_rresp,
    output wire [N-1:0]         s_irq,
    // status and monitors (per chip / per port)
    output wire [NP-1:0]        link_up,
    output wire [N-1:0]         mon_inj_valid,
    output wire [N*68-1:0]      mon_inj_flit,
    output wire [N-1:0]         mon_ej_valid,
    output wire [N*68-1:0]      mon_ej_flit,
    output wire [NP-1:0]        mon_out_valid,
    output wire [NP*68-1:0]     mon_out_flit,
    output wire [NP-1:0]        mon_out_sunk,
    output wire [NP-1:0]        mon_in_valid,
    output wire [NP*68-1:0]     mon_in_flit,
    output wire [N-1:0]         mon_svc_wr,
    output wire [N*15-1:0]      mon_svc_wr_addr,
    output wire [N*32-1:0]      mon_svc_wr_data,
    output wire [N*64-1:0]      stat_router_errors,
    output wire [N*32-1:0]      stat_router_fault_drops,
    output wire [NP*2-1:0]      stat_link_state,
    output wire [NP*512-1:0]    stat_link_counters,
    output wire [NP-1:0]        stat_lane_reset,
    output wire [N*384-1:0]     stat_ni,
    output wire [N*5-1:0]       stat_e2e_inc,
    output wire [N*85-1:0]      stat_ni_dbg,
    output wire [N*80-1:0]      stat_pcie,
    output wire [NP-1:0]        stat_port_en
);
  localparam [3:0] DXM1 = DIM_X[3:0] - 4'd1;
  localparam [3:0] DYM1 = DIM_Y[3:0] - 4'd1;
  localparam [3:0] DZM1 = DIM_Z[3:0] - 4'd1;
  localparam integer LW = 6 * LANES;  // lanes of one chip

  genvar n;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_chip
      localparam integer X = n % DIM_X;
      localparam integer Y = (n / DIM_X) % DIM_Y;
      localparam integer Z = n / (DIM_X * DIM_Y);
      localparam [11:0] NODE_ID = {Z[3:0], Y[3:0], X[3:0]};
      kolo_sim_chip u_chip (
          .clk(clk[n]), .rst(rst[n]), .node_id(NODE_ID), .dim_m1({DZM1, DYM1, DXM1}), .ready(ready[n]),
          .pcie_clk(pcie_clk[n]), .pcie_rst(pcie_rst[n]),
          .rx_tlp_valid(rx_tlp_valid[n]), .rx_tlp_ready(rx_tlp_ready[n]), .rx_tlp_hdr(rx_tlp_hdr[n*128+:128]),
          .rx_tlp_data(rx_tlp_data[n*256+:256]), .rx_tlp_sop(rx_tlp_sop[n]), .rx_tlp_eop(rx_tlp_eop[n]),
          .rx_tlp_dw_en(rx_tlp_dw_en[n*8+:8]),
          .tx_tlp_valid(tx_tlp_valid[n]), .tx_tlp_ready(tx_tlp_ready[n]), .tx_tlp_hdr(tx_tlp_hdr[n*128+:128]),
          .tx_tlp_data(tx_tlp_data[n*256+:256]), .tx_tlp_sop(tx_tlp_sop[n]), .tx_tlp_eop(tx_tlp_eop[n]),
          .tx_tlp_dw_en(tx_tlp_dw_en[n*8+:8]),
          .rx_cpl_valid(rx_cpl_valid[n]), .rx_cpl_ready(rx_cpl_ready[n]), .rx_cpl_hdr(rx_cpl_hdr[n*128+:128]),
          .rx_cpl_data(rx_cpl_data[n*256+:256]), .rx_cpl_sop(rx_cpl_sop[n]), .rx_cpl_eop(rx_cpl_eop[n]),
          .rx_cpl_dw_en(rx_cpl_dw_en[n*8+:8]), .np_credit(np_credit[n]),
          .cfg_cpl_hdr(cfg_cpl_hdr[n*12+:12]), .cfg_cpl_data(cfg_cpl_data[n*16+:16]),
          .cfg_bar0(cfg_bar0), .cfg_bar2(cfg_bar2), .cfg_req_id(cfg_req_id),
          .cfg_max_payload(cfg_max_payload), .cfg_max_read_req(cfg_max_read_req),
          .cfg_bus_master(cfg_bus_master), .cfg_msi_addr(cfg_msi_addr), .cfg_msi_data(cfg_msi_data),
          .cfg_msi_en(cfg_msi_en),
          .lane_tx_clk(lane_tx_clk[n*6+:6]), .lane_tx_rst(lane_tx_rst[n*6+:6]),
          .lane_tx_sequence(lane_tx_sequence[n*6*7+:6*7]),
          .lane_rx_clk(lane_rx_clk[n*6+:6]), .lane_rx_rst(lane_rx_rst[n*6+:6]),
          .lane_loopback(lane_loopback[n*6+:6]),
          .lane_tx_data(lane_tx_data[n*LW*GT_W+:LW*GT_W]), .lane_tx_header(lane_tx_header[n*LW*2+:LW*2]),
          .lane_rx_data(lane_rx_data[n*LW*GT_W+:LW*GT_W]), .lane_rx_header(lane_rx_header[n*LW*2+:LW*2]),
          .lane_rx_data_valid(lane_rx_data_valid[n*LW+:LW]),
          .lane_rx_header_valid(lane_rx_header_valid[n*LW+:LW]),
          .lane_rx_slip(lane_rx_slip[n*LW+:LW]),
          .sp_clk(sp_clk[n]), .sp_console_valid(sp_console_valid[n]),
          .sp_console_data(sp_console_data[n*8+:8]), .sp_console_ready(sp_console_ready[n]),
          .sp_heartbeat(sp_heartbeat[n]),
          .s_axil_awvalid(s_axil_awvalid[n]), .s_axil_awready(s_axil_awready[n]),
          .s_axil_awaddr(s_axil_awaddr[n*15+:15]),
          .s_axil_wvalid(s_axil_wvalid[n]), .s_axil_wready(s_axil_wready[n]),
          .s_axil_wdata(s_axil_wdata[n*32+:32]), .s_axil_wstrb(s_axil_wstrb[n*4+:4]),
          .s_axil_bvalid(s_axil_bvalid[n]), .s_axil_bready(s_axil_bready[n]), .s_axil_bresp(s_axil_bresp[n*2+:2]),
          .s_axil_arvalid(s_axil_arvalid[n]), .s_axil_arready(s_axil_arready[n]),
          .s_axil_araddr(s_axil_araddr[n*15+:15]),
          .s_axil_rvalid(s_axil_rvalid[n]), .s_axil_rready(s_axil_rready[n]),
          .s_axil_rdata(s_axil_rdata[n*32+:32]), .s_axil_rresp(s_axil_rresp[n*2+:2]),
          .s_irq(s_irq[n]),
          .link_up(link_up[n*6+:6]),
          .mon_inj_valid(mon_inj_valid[n]), .mon_inj_flit(mon_inj_flit[n*68+:68]),
          .mon_ej_valid(mon_ej_valid[n]), .mon_ej_flit(mon_ej_flit[n*68+:68]),
          .mon_out_valid(mon_out_valid[n*6+:6]), .mon_out_flit(mon_out_flit[n*6*68+:6*68]),
          .mon_out_sunk(mon_out_sunk[n*6+:6]),
          .mon_in_valid(mon_in_valid[n*6+:6]), .mon_in_flit(mon_in_flit[n*6*68+:6*68]),
          .mon_svc_wr(mon_svc_wr[n]), .mon_svc_wr_addr(mon_svc_wr_addr[n*15+:15]),
          .mon_svc_wr_data(mon_svc_wr_data[n*32+:32]),
          .stat_router_errors(stat_router_errors[n*64+:64]),
          .stat_router_fault_drops(stat_router_fault_drops[n*32+:32]),
          .stat_link_state(stat_link_state[n*12+:12]),
          .stat_link_counters(stat_link_counters[n*6*512+:6*512]),
          .stat_lane_reset(stat_lane_reset[n*6+:6]),
          .stat_ni(stat_ni[n*384+:384]), .stat_e2e_inc(stat_e2e_inc[n*5+:5]), .stat_ni_dbg(stat_ni_dbg[n*85+:85]),
          .stat_pcie(stat_pcie[n*80+:80]), .stat_port_en(stat_port_en[n*6+:6])
      );
    end
  endgenerate
endmodule
`default_nettype wire
