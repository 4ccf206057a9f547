`default_nettype none
// kolo_sim_cluster - the Verilated top of kolo-sim --ni=rtl (docs/sim.md): a
// kolo_torus (ideal 1-cycle links, REAL_LINKS 0) with, on every node, a
// kolo_sim_node (kolo_pcie_ep + kolo_ni joined at the endpoint's user side). Each
// node's TLP ports are brought out (the C++ plays one root complex per
// node); the NI <-> router local ports are brought out as monitor copies
// (the scoreboard sees every injected and ejected flit). Node n = x +
// DIM_X*(y + DIM_Y*z) gets node id {z, y, x}. The torus size comes from
// the macros KOLO_SIM_DIM_X/Y/Z (Verilator 5.006 cannot take -G with
// --hierarchical). PCIe configuration inputs are common to every node.
`ifndef KOLO_SIM_DIM_X
`define KOLO_SIM_DIM_X 2
`endif
`ifndef KOLO_SIM_DIM_Y
`define KOLO_SIM_DIM_Y 2
`endif
`ifndef KOLO_SIM_DIM_Z
`define KOLO_SIM_DIM_Z 2
`endif
module kolo_sim_cluster #(
    parameter DIM_X = `KOLO_SIM_DIM_X,
    parameter DIM_Y = `KOLO_SIM_DIM_Y,
    parameter DIM_Z = `KOLO_SIM_DIM_Z,
    parameter N = DIM_X * DIM_Y * DIM_Z
) (
    input  wire             clk,
    input  wire             rst,
    // TLPs root complex -> device, per node
    input  wire [N-1:0]     rx_tlp_valid,
    output wire [N-1:0]     rx_tlp_ready,
    input  wire [N*128-1:0] rx_tlp_hdr,
    input  wire [N*256-1:0] rx_tlp_data,
    input  wire [N-1:0]     rx_tlp_sop,
    input  wire [N-1:0]     rx_tlp_eop,
    input  wire [N*8-1:0]   rx_tlp_dw_en,
    // TLPs device -> root complex, per node
    output wire [N-1:0]     tx_tlp_valid,
    input  wire [N-1:0]     tx_tlp_ready,
    output wire [N*128-1:0] tx_tlp_hdr,
    output wire [N*256-1:0] tx_tlp_data,
    output wire [N-1:0]     tx_tlp_sop,
    output wire [N-1:0]     tx_tlp_eop,
    output wire [N*8-1:0]   tx_tlp_dw_en,
    // PCIe configuration (every node alike)
    input  wire [63:0]      cfg_bar0,
    input  wire [63:0]      cfg_bar2,
    input  wire [15:0]      cfg_req_id,
    input  wire [2:0]       cfg_max_payload,
    input  wire [2:0]       cfg_max_read_req,
    input  wire             cfg_bus_master,
    input  wire [63:0]      cfg_msi_addr,
    input  wire [15:0]      cfg_msi_data,
    input  wire             cfg_msi_en,
    // local port monitors (NI -> router, router -> NI)
    output wire [N-1:0]     mon_inj_valid,
    output wire [N*68-1:0]  mon_inj_flit,
    output wire [N-1:0]     mon_ej_valid,
    output wire [N*68-1:0]  mon_ej_flit,
    // counters
    output wire [N*384-1:0] ni_stats,
    output wire [N*80-1:0]  ep_stats,     // {bad_tlp, cpl_err, cpl_timeout, ca, ur} per node
    output wire [N*64-1:0]  router_errors,
    output wire [N*85-1:0]  ni_dbg,
    // faults: link_down per router port (both ends of a failed link), as kolo_torus_sim
    // (--net=rtl); the router port monitors name the flits dropped at a down link (mon_sunk)
    input  wire [N*6-1:0]   link_down,
    output wire [N*6-1:0]   mon_valid,
    output wire [N*6*68-1:0] mon_flit,
    output wire [N*6-1:0]   mon_sunk,
    // MGMT packets of every node's service block (kolo_sim_node)
    input  wire [N-1:0]     mgmt_tx_valid,
    input  wire [N*66-1:0]  mgmt_tx_flit,
    output wire [N-1:0]     mgmt_tx_ready,
    output wire [N-1:0]     mgmt_rx_valid,
    output wire [N*66-1:0]  mgmt_rx_flit,
    input  wire [N-1:0]     mgmt_rx_ready,
    output wire [N*5-1:0]   e2e_inc       // per node {unreach, timeout, dup_resp, dup_req, retx} pulses
);
  localparam [11:0] DIM_M1 = {DIM_Z[3:0] - 4'd1, DIM_Y[3:0] - 4'd1, DIM_X[3:0] - 4'd1};

  wire [N-1:0] inj_valid, inj_credit_valid, ej_valid, ej_credit_valid;
  wire [N*68-1:0] inj_flit, ej_flit;
  wire [N*2-1:0] inj_credit_vc, ej_credit_vc;

  assign mon_inj_valid = inj_valid;
  assign mon_inj_flit = inj_flit;
  assign mon_ej_valid = ej_valid;
  assign mon_ej_flit = ej_flit;

  /* verilator lint_off PINCONNECTEMPTY */
  kolo_torus #(
      .DIM_X(DIM_X),
      .DIM_Y(DIM_Y),
      .DIM_Z(DIM_Z),
      .LINK_LATENCY(1),
      .VC_DEPTH(80),
      .EJECT_CREDITS(64),
      .BUBBLE(1),
      .REAL_LINKS(0)
  ) u_torus (
      .clk(clk),
      .rst(rst),
      .inj_valid(inj_valid),
      .inj_flit(inj_flit),
      .inj_credit_valid(inj_credit_valid),
      .inj_credit_vc(inj_credit_vc),
      .ej_valid(ej_valid),
      .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid),
      .ej_credit_vc(ej_credit_vc),
      .mon_valid(mon_valid),
      .mon_flit(mon_flit),
      .mon_sunk(mon_sunk),
      .link_down(link_down),
      .stat_fault_drops(),
      .stat_errors(router_errors),
      .stat_out_flits(),
      .dbg_vc_occ(),
      .dbg_vc_route(),
      .lane_clk(clk),
      .lane_rst(rst),
      .lane_tx(),
      .lane_rx({N * 6 * 66{1'b0}}),
      .lane_slip(),
      .link_up(),
      .link_state(),
      .link_counters()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  genvar n;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_node
      localparam integer X = n % DIM_X;
      localparam integer Y = (n / DIM_X) % DIM_Y;
      localparam integer Z = n / (DIM_X * DIM_Y);
      localparam [11:0] ID = {Z[3:0], Y[3:0], X[3:0]};

      kolo_sim_node u_node (
          .clk(clk),
          .rst(rst),
          .node_id(ID),
          .dim_m1(DIM_M1),
          .rx_tlp_valid(rx_tlp_valid[n]),
          .rx_tlp_ready(rx_tlp_ready[n]),
          .rx_tlp_hdr(rx_tlp_hdr[n*128+:128]),
          .rx_tlp_data(rx_tlp_data[n*256+:256]),
          .rx_tlp_sop(rx_tlp_sop[n]),
          .rx_tlp_eop(rx_tlp_eop[n]),
          .rx_tlp_dw_en(rx_tlp_dw_en[n*8+:8]),
          .tx_tlp_valid(tx_tlp_valid[n]),
          .tx_tlp_ready(tx_tlp_ready[n]),
          .tx_tlp_hdr(tx_tlp_hdr[n*128+:128]),
          .tx_tlp_data(tx_tlp_data[n*256+:256]),
          .tx_tlp_sop(tx_tlp_sop[n]),
          .tx_tlp_eop(tx_tlp_eop[n]),
          .tx_tlp_dw_en(tx_tlp_dw_en[n*8+:8]),
          .cfg_bar0(cfg_bar0),
          .cfg_bar2(cfg_bar2),
          .cfg_req_id(cfg_req_id),
          .cfg_max_payload(cfg_max_payload),
          .cfg_max_read_req(cfg_max_read_req),
          .cfg_bus_master(cfg_bus_master),
          .cfg_msi_addr(cfg_msi_addr),
          .cfg_msi_data(cfg_msi_data),
          .cfg_msi_en(cfg_msi_en),
          .inj_valid(inj_valid[n]),
          .inj_flit(inj_flit[n*68+:68]),
          .inj_credit_valid(inj_credit_valid[n]),
          .inj_credit_vc(inj_credit_vc[n*2+:2]),
          .ej_valid(ej_valid[n]),
          .ej_flit(ej_flit[n*68+:68]),
          .ej_credit_valid(ej_credit_valid[n]),
          .ej_credit_vc(ej_credit_vc[n*2+:2]),
          .ni_stats(ni_stats[n*384+:384]),
          .ep_stats(ep_stats[n*80+:80]),
          .ni_dbg(ni_dbg[n*85+:85]),
          .mgmt_tx_valid(mgmt_tx_valid[n]),
          .mgmt_tx_flit(mgmt_tx_flit[n*66+:66]),
          .mgmt_tx_ready(mgmt_tx_ready[n]),
          .mgmt_rx_valid(mgmt_rx_valid[n]),
          .mgmt_rx_flit(mgmt_rx_flit[n*66+:66]),
          .mgmt_rx_ready(mgmt_rx_ready[n]),
          .e2e_inc(e2e_inc[n*5+:5])
      );
    end
  endgenerate
endmodule
`default_nettype wire
