`default_nettype none
// tb_ni - N kolo_ni instances for the C++ harness tb_ni.cpp. The host side
// of each NI (the user side of kolo_pcie_ep: MMIO, DMA read/write, MSI) is
// brought out per node, packed node by node into the ports below; the C++
// plays the endpoint and host memory. TORUS = 1: the NIs sit on a kolo_torus
// (ideal links); TORUS = 0: their router local ports (inj_*, ej_*) are
// brought out too and the C++ plays the network. Node ids are the torus'
// (node n = x + DIM_X*(y + DIM_Y*z)).
// SVC = 1: each node is a kolo_node (NI + service block kolo_svc + BAR0
// window): the service processors' AXI4-Lite ports are brought out (svc_*,
// packed node by node), the NIs route with the service blocks' tables and
// carry their MGMT packets. Links report up with no counters.
module tb_ni #(
    parameter DIM_X = 2,
    parameter DIM_Y = 1,
    parameter DIM_Z = 1,
    parameter TORUS = 0,
    parameter SMALL = 0,      // 1: the NIs with small buffers (every full-buffer path)
    parameter SVC = 0,        // 1: kolo_node (NI + service block) per node
    parameter N = DIM_X * DIM_Y * DIM_Z
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [N-1:0]     mmio_wr_valid,
    output wire [N-1:0]     mmio_wr_ready,
    input  wire [N*2-1:0]   mmio_wr_bar,
    input  wire [N*32-1:0]  mmio_wr_addr,
    input  wire [N*512-1:0] mmio_wr_data,
    input  wire [N*64-1:0]  mmio_wr_strb,
    input  wire [N-1:0]     mmio_rd_valid,
    output wire [N-1:0]     mmio_rd_ready,
    input  wire [N*2-1:0]   mmio_rd_bar,
    input  wire [N*32-1:0]  mmio_rd_addr,
    input  wire [N*4-1:0]   mmio_rd_len,
    output wire [N-1:0]     mmio_rd_resp_valid,
    input  wire [N-1:0]     mmio_rd_resp_ready,
    output wire [N*64-1:0]  mmio_rd_resp_data,
    output wire [N-1:0]     mmio_rd_resp_err,
    output wire [N-1:0]     dma_rd_req_valid,
    input  wire [N-1:0]     dma_rd_req_ready,
    output wire [N*64-1:0]  dma_rd_req_addr,
    output wire [N*13-1:0]  dma_rd_req_len,
    output wire [N*8-1:0]   dma_rd_req_id,
    input  wire [N-1:0]     dma_rd_valid,
    output wire [N-1:0]     dma_rd_ready,
    input  wire [N*256-1:0] dma_rd_data,
    input  wire [N*8-1:0]   dma_rd_id,
    input  wire [N-1:0]     dma_rd_last,
    input  wire [N-1:0]     dma_rd_err,
    output wire [N-1:0]     dma_wr_valid,
    input  wire [N-1:0]     dma_wr_ready,
    output wire [N*64-1:0]  dma_wr_addr,
    output wire [N*13-1:0]  dma_wr_len,
    output wire [N*256-1:0] dma_wr_data,
    output wire [N-1:0]     dma_wr_last,
    output wire [N-1:0]     msi_valid,
    input  wire [N-1:0]     msi_ready,
    output wire [N*5-1:0]   msi_vector,
    output wire [N*384-1:0] stat_counters,
    output wire [N*64-1:0]  router_errors,
    output wire [N*85-1:0]  dbg_state,
    // router local port activity per node, for the latency breakdown (bench-latency):
    // {ejected tail, ejected head, injected tail, injected head} (flit valid in this cycle)
    output wire [N*4-1:0]   mon_port,
    // router local ports (TORUS = 0)
    output wire [N-1:0]     inj_valid,
    output wire [N*68-1:0]  inj_flit,
    input  wire [N-1:0]     inj_credit_valid,
    input  wire [N*2-1:0]   inj_credit_vc,
    input  wire [N-1:0]     ej_valid,
    input  wire [N*68-1:0]  ej_flit,
    output wire [N-1:0]     ej_credit_valid,
    output wire [N*2-1:0]   ej_credit_vc,
    // rising reflash[n]: node n's NI end-to-end tables as a bitstream load leaves them,
    // without a reset (docs/ni.md 10.1): generation table 0, known table reflash_known[n]
    // (0: unknown, the bitstream's value; 1: the planted old behaviour, no RESYNC)
    input  wire [N-1:0]     reflash,
    input  wire [N-1:0]     reflash_known,
    // links down (TORUS = 1; index n*6+p, set both ends): the routers drop packets for them
    input  wire [N*6-1:0]   link_down,
    // service processors (SVC = 1)
    input  wire [N-1:0]     svc_awvalid,
    output wire [N-1:0]     svc_awready,
    input  wire [N*15-1:0]  svc_awaddr,
    input  wire [N-1:0]     svc_wvalid,
    output wire [N-1:0]     svc_wready,
    input  wire [N*32-1:0]  svc_wdata,
    input  wire [N*4-1:0]   svc_wstrb,
    output wire [N-1:0]     svc_bvalid,
    input  wire [N-1:0]     svc_bready,
    output wire [N*2-1:0]   svc_bresp,
    input  wire [N-1:0]     svc_arvalid,
    output wire [N-1:0]     svc_arready,
    input  wire [N*15-1:0]  svc_araddr,
    output wire [N-1:0]     svc_rvalid,
    input  wire [N-1:0]     svc_rready,
    output wire [N*32-1:0]  svc_rdata,
    output wire [N*2-1:0]   svc_rresp,
    output wire [N-1:0]     svc_irq
);
  localparam [11:0] DIM_M1 = {DIM_Z[3:0] - 4'd1, DIM_Y[3:0] - 4'd1, DIM_X[3:0] - 4'd1};
  localparam [5:0] PORT_EN = {{2{DIM_Z > 1}}, {2{DIM_Y > 1}}, {2{DIM_X > 1}}};

  wire [N-1:0] ni_inj_valid, ni_inj_credit_valid, ni_ej_valid, ni_ej_credit_valid;
  wire [N*68-1:0] ni_inj_flit, ni_ej_flit;
  wire [N*2-1:0] ni_inj_credit_vc, ni_ej_credit_vc;

  generate
    if (TORUS != 0) begin : g_torus
      assign inj_valid = {N{1'b0}};
      assign inj_flit = {N * 68{1'b0}};
      assign ej_credit_valid = {N{1'b0}};
      assign ej_credit_vc = {N * 2{1'b0}};
      wire unused_ports = &{1'b0, inj_credit_valid, inj_credit_vc, ej_valid, ej_flit};
      /* verilator lint_off PINCONNECTEMPTY */
      kolo_torus #(
          .DIM_X(DIM_X),
          .DIM_Y(DIM_Y),
          .DIM_Z(DIM_Z),
          .LINK_LATENCY(1),
          .VC_DEPTH(80),
          .EJECT_CREDITS(64)
      ) u_torus (
          .clk(clk),
          .rst(rst),
          .inj_valid(ni_inj_valid),
          .inj_flit(ni_inj_flit),
          .inj_credit_valid(ni_inj_credit_valid),
          .inj_credit_vc(ni_inj_credit_vc),
          .ej_valid(ni_ej_valid),
          .ej_flit(ni_ej_flit),
          .ej_credit_valid(ni_ej_credit_valid),
          .ej_credit_vc(ni_ej_credit_vc),
          .mon_valid(),
          .mon_flit(),
          .mon_sunk(),
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
    end else begin : g_net
      assign router_errors = {N * 64{1'b0}};
      wire unused_link_down = &{1'b0, link_down};
      assign inj_valid = ni_inj_valid;
      assign inj_flit = ni_inj_flit;
      assign ni_inj_credit_valid = inj_credit_valid;
      assign ni_inj_credit_vc = inj_credit_vc;
      assign ni_ej_valid = ej_valid;
      assign ni_ej_flit = ej_flit;
      assign ej_credit_valid = ni_ej_credit_valid;
      assign ej_credit_vc = ni_ej_credit_vc;
    end
  endgenerate

  genvar m;
  generate
    for (m = 0; m < N; m = m + 1) begin : g_mon
      assign mon_port[m*4+:4] = {ni_ej_valid[m] && ni_ej_flit[m*68+64], ni_ej_valid[m] && ni_ej_flit[m*68+65],
                                 ni_inj_valid[m] && ni_inj_flit[m*68+64], ni_inj_valid[m] && ni_inj_flit[m*68+65]};
    end
  endgenerate

  genvar n;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_ni
      localparam integer X = n % DIM_X;
      localparam integer Y = (n / DIM_X) % DIM_Y;
      localparam integer Z = n / (DIM_X * DIM_Y);
      localparam [11:0] ID = {Z[3:0], Y[3:0], X[3:0]};
      if (SVC != 0) begin : g_node
        kolo_node #(
            .DQ(SMALL != 0 ? 4 : 64),
            .BATCH(SMALL != 0 ? 2 : 16),
            .HQ_AW(SMALL != 0 ? 2 : 6),
            .RING_AW(SMALL != 0 ? 4 : 9),
            .GSLOTS(SMALL != 0 ? 2 : 8)
        ) u_node (
            .clk(clk),
            .rst(rst),
            .node_id(ID),
            .dim_m1(DIM_M1),
            .s_axil_awvalid(svc_awvalid[n]),
            .s_axil_awready(svc_awready[n]),
            .s_axil_awaddr(svc_awaddr[n*15+:15]),
            .s_axil_wvalid(svc_wvalid[n]),
            .s_axil_wready(svc_wready[n]),
            .s_axil_wdata(svc_wdata[n*32+:32]),
            .s_axil_wstrb(svc_wstrb[n*4+:4]),
            .s_axil_bvalid(svc_bvalid[n]),
            .s_axil_bready(svc_bready[n]),
            .s_axil_bresp(svc_bresp[n*2+:2]),
            .s_axil_arvalid(svc_arvalid[n]),
            .s_axil_arready(svc_arready[n]),
            .s_axil_araddr(svc_araddr[n*15+:15]),
            .s_axil_rvalid(svc_rvalid[n]),
            .s_axil_rready(svc_rready[n]),
            .s_axil_rdata(svc_rdata[n*32+:32]),
            .s_axil_rresp(svc_rresp[n*2+:2]),
            .irq(svc_irq[n]),
            // no register port (NI_EN = 1: the host is on the NI's side)
            /* verilator lint_off PINCONNECTEMPTY */
            .h_axil_awvalid(1'b0), .h_axil_awready(), .h_axil_awaddr(15'd0), .h_axil_wvalid(1'b0),
            .h_axil_wready(), .h_axil_wdata(32'd0), .h_axil_wstrb(4'd0), .h_axil_bvalid(),
            .h_axil_bready(1'b1), .h_axil_bresp(), .h_axil_arvalid(1'b0), .h_axil_arready(),
            .h_axil_araddr(15'd0), .h_axil_rvalid(), .h_axil_rready(1'b1), .h_axil_rdata(),
            .h_axil_rresp(),
            /* verilator lint_on PINCONNECTEMPTY */
            .sp_fault(1'b0),
            .sp_fault_cause(4'd0),
            .sp_fault_pc(32'd0),
            .link_up(PORT_EN),
            .link_peer_valid(6'd0),
            .link_peer_id(72'd0),
            .link_peer_port(18'd0),
            .link_crc_err(6'd0),
            .link_replay(6'd0),
            .link_tx_frame(6'd0),
            .link_rx_frame(6'd0),
            /* verilator lint_off PINCONNECTEMPTY */
            .link_enable(),
            .link_loopback(),
            .port_en(),
            /* verilator lint_on PINCONNECTEMPTY */
            .rtr_port_down(6'd0),
            .rtr_drop_route(32'd0),
            .rtr_drop_bad(32'd0),
            .rtr_fault_drops(32'd0),
            .rtr_out_flits({7 * 32{1'b0}}),
            .mmio_wr_valid(mmio_wr_valid[n]),
            .mmio_wr_ready(mmio_wr_ready[n]),
            .mmio_wr_bar(mmio_wr_bar[n*2+:2]),
            .mmio_wr_addr(mmio_wr_addr[n*32+:32]),
            .mmio_wr_data(mmio_wr_data[n*512+:512]),
            .mmio_wr_strb(mmio_wr_strb[n*64+:64]),
            .mmio_rd_valid(mmio_rd_valid[n]),
            .mmio_rd_ready(mmio_rd_ready[n]),
            .mmio_rd_bar(mmio_rd_bar[n*2+:2]),
            .mmio_rd_addr(mmio_rd_addr[n*32+:32]),
            .mmio_rd_len(mmio_rd_len[n*4+:4]),
            .mmio_rd_resp_valid(mmio_rd_resp_valid[n]),
            .mmio_rd_resp_ready(mmio_rd_resp_ready[n]),
            .mmio_rd_resp_data(mmio_rd_resp_data[n*64+:64]),
            .mmio_rd_resp_err(mmio_rd_resp_err[n]),
            .dma_rd_req_valid(dma_rd_req_valid[n]),
            .dma_rd_req_ready(dma_rd_req_ready[n]),
            .dma_rd_req_addr(dma_rd_req_addr[n*64+:64]),
            .dma_rd_req_len(dma_rd_req_len[n*13+:13]),
            .dma_rd_req_id(dma_rd_req_id[n*8+:8]),
            .dma_rd_valid(dma_rd_valid[n]),
            .dma_rd_ready(dma_rd_ready[n]),
            .dma_rd_data(dma_rd_data[n*256+:256]),
            .dma_rd_id(dma_rd_id[n*8+:8]),
            .dma_rd_last(dma_rd_last[n]),
            .dma_rd_err(dma_rd_err[n]),
            .dma_wr_valid(dma_wr_valid[n]),
            .dma_wr_ready(dma_wr_ready[n]),
            .dma_wr_addr(dma_wr_addr[n*64+:64]),
            .dma_wr_len(dma_wr_len[n*13+:13]),
            .dma_wr_data(dma_wr_data[n*256+:256]),
            .dma_wr_last(dma_wr_last[n]),
            .msi_valid(msi_valid[n]),
            .msi_ready(msi_ready[n]),
            .msi_vector(msi_vector[n*5+:5]),
            .inj_valid(ni_inj_valid[n]),
            .inj_flit(ni_inj_flit[n*68+:68]),
            .inj_credit_valid(ni_inj_credit_valid[n]),
            .inj_credit_vc(ni_inj_credit_vc[n*2+:2]),
            .ej_valid(ni_ej_valid[n]),
            .ej_flit(ni_ej_flit[n*68+:68]),
            .ej_credit_valid(ni_ej_credit_valid[n]),
            .ej_credit_vc(ni_ej_credit_vc[n*2+:2]),
            .stat_counters(stat_counters[n*384+:384]),
            /* verilator lint_off PINCONNECTEMPTY */  // the E2E_* CSRs count them
            .stat_e2e_inc(),
            /* verilator lint_on PINCONNECTEMPTY */
            .dbg_state(dbg_state[n*85+:85])
        );
        integer gi;
        /* verilator lint_off BLKSEQ */
        /* verilator lint_off MULTIDRIVEN */
        always @(posedge reflash[n])
          for (gi = 0; gi < 16 * 256; gi = gi + 1) begin
            u_node.g_ni.u_ni.u_e2e.gen_t[gi] = 1'b0;
            u_node.g_ni.u_ni.u_e2e.known_t[gi] = reflash_known[n];
          end
        /* verilator lint_on MULTIDRIVEN */
        /* verilator lint_on BLKSEQ */
      end else begin : g_plain
        assign svc_awready[n] = 1'b0;
        assign svc_wready[n] = 1'b0;
        assign svc_bvalid[n] = 1'b0;
        assign svc_bresp[n*2+:2] = 2'b00;
        assign svc_arready[n] = 1'b0;
        assign svc_rvalid[n] = 1'b0;
        assign svc_rdata[n*32+:32] = 32'd0;
        assign svc_rresp[n*2+:2] = 2'b00;
        assign svc_irq[n] = 1'b0;
        wire unused_svc = &{1'b0, svc_awvalid[n], svc_awaddr[n*15+:15], svc_wvalid[n], svc_wdata[n*32+:32],
                            svc_wstrb[n*4+:4], svc_bready[n], svc_arvalid[n], svc_araddr[n*15+:15],
                            svc_rready[n]};
        kolo_ni #(
            .DQ(SMALL != 0 ? 4 : 64),
            .BATCH(SMALL != 0 ? 2 : 16),
            .HQ_AW(SMALL != 0 ? 2 : 6),
            .RING_AW(SMALL != 0 ? 4 : 9),
            .GSLOTS(SMALL != 0 ? 2 : 8),
            .ATOMICS(SMALL != 0 ? 2 : 32)
        ) u_ni (
            .clk(clk),
            .rst(rst),
            .svc_node_id(ID),
            .svc_dim_m1(DIM_M1),
            // no service block here: MGMT dropped and counted, the BAR0-written table
            .svc_en(1'b0),
            /* verilator lint_off PINCONNECTEMPTY */
            .svc_rt_lk_valid(),
            .svc_rt_lk_id(),
            .mgmt_tx_ready(),
            .mgmt_rx_valid(),
            .mgmt_rx_flit(),
            .stat_unreachable(),
            .stat_e2e_inc(),
            /* verilator lint_on PINCONNECTEMPTY */
            .svc_rt_lk_entry(32'd0),
            .svc_rt_switch(1'b0),
            .mgmt_tx_valid(1'b0),
            .mgmt_tx_flit(66'd0),
            .mgmt_rx_ready(1'b1),
            .mmio_wr_valid(mmio_wr_valid[n]),
            .mmio_wr_ready(mmio_wr_ready[n]),
            .mmio_wr_bar(mmio_wr_bar[n*2+:2]),
            .mmio_wr_addr(mmio_wr_addr[n*32+:32]),
            .mmio_wr_data(mmio_wr_data[n*512+:512]),
            .mmio_wr_strb(mmio_wr_strb[n*64+:64]),
            .mmio_rd_valid(mmio_rd_valid[n]),
            .mmio_rd_ready(mmio_rd_ready[n]),
            .mmio_rd_bar(mmio_rd_bar[n*2+:2]),
            .mmio_rd_addr(mmio_rd_addr[n*32+:32]),
            .mmio_rd_len(mmio_rd_len[n*4+:4]),
            .mmio_rd_resp_valid(mmio_rd_resp_valid[n]),
            .mmio_rd_resp_ready(mmio_rd_resp_ready[n]),
            .mmio_rd_resp_data(mmio_rd_resp_data[n*64+:64]),
            .mmio_rd_resp_err(mmio_rd_resp_err[n]),
            .dma_rd_req_valid(dma_rd_req_valid[n]),
            .dma_rd_req_ready(dma_rd_req_ready[n]),
            .dma_rd_req_addr(dma_rd_req_addr[n*64+:64]),
            .dma_rd_req_len(dma_rd_req_len[n*13+:13]),
            .dma_rd_req_id(dma_rd_req_id[n*8+:8]),
            .dma_rd_valid(dma_rd_valid[n]),
            .dma_rd_ready(dma_rd_ready[n]),
            .dma_rd_data(dma_rd_data[n*256+:256]),
            .dma_rd_id(dma_rd_id[n*8+:8]),
            .dma_rd_last(dma_rd_last[n]),
            .dma_rd_err(dma_rd_err[n]),
            .dma_wr_valid(dma_wr_valid[n]),
            .dma_wr_ready(dma_wr_ready[n]),
            .dma_wr_addr(dma_wr_addr[n*64+:64]),
            .dma_wr_len(dma_wr_len[n*13+:13]),
            .dma_wr_data(dma_wr_data[n*256+:256]),
            .dma_wr_last(dma_wr_last[n]),
            .msi_valid(msi_valid[n]),
            .msi_ready(msi_ready[n]),
            .msi_vector(msi_vector[n*5+:5]),
            .inj_valid(ni_inj_valid[n]),
            .inj_flit(ni_inj_flit[n*68+:68]),
            .inj_credit_valid(ni_inj_credit_valid[n]),
            .inj_credit_vc(ni_inj_credit_vc[n*2+:2]),
            .ej_valid(ni_ej_valid[n]),
            .ej_flit(ni_ej_flit[n*68+:68]),
            .ej_credit_valid(ni_ej_credit_valid[n]),
            .ej_credit_vc(ni_ej_credit_vc[n*2+:2]),
            .stat_counters(stat_counters[n*384+:384]),
            .dbg_state(dbg_state[n*85+:85])
        );
        integer gi;
        /* verilator lint_off BLKSEQ */
        /* verilator lint_off MULTIDRIVEN */
        always @(posedge reflash[n])
          for (gi = 0; gi < 16 * 256; gi = gi + 1) begin
            u_ni.u_e2e.gen_t[gi] = 1'b0;
            u_ni.u_e2e.known_t[gi] = reflash_known[n];
          end
        /* verilator lint_on MULTIDRIVEN */
        /* verilator lint_on BLKSEQ */
      end
    end
  endgenerate
endmodule
`default_nettype wire
