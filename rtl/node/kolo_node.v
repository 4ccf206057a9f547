`default_nettype none
// kolo_node - one node's interconnect logic behind its PCIe endpoint and in
// front of its router: the NI (kolo_ni), the service block (kolo_svc) and
// the BAR0 window that shows the service registers to the host
// (kolo_node_mmio, BAR0 0x8000..0xffff). The host side is the user side of
// kolo_pcie_ep (mmio_*, dma_*, msi_*, as kolo_ni's); the network side is the
// router's local port (inj_*, ej_*). The service processor reaches the
// registers on s_axil_* (32-bit AXI4-Lite). The service block's MGMT packets
// share the NI's local port (vnet 1), and the NI routes every packet with
// the service block's active table (svc_en strap of kolo_ni). The links and
// the router report to the service block (link_*, rtr_*), which enables
// them (link_enable, link_loopback, port_en) and interrupts the processor
// (irq). Parameters are the NI's. The service block's table switch (rt_switch)
// is the NI's end-to-end "table switched" event (docs/ni.md 10), and
// operations given up with BAD_DST count in its RT_UNREACHABLE. Hold rst for
// at least 40 cycles after the straps are valid (kolo_svc builds its id ->
// index tables from them, docs/svc.md).
// NI_EN = 0 (a chip without PCIe, kolo_chip HOST_IF = 1): no NI and no BAR0
// window. The host reaches the service registers on h_axil_* (the service
// block's host port itself: offsets 0..0x7fff, HOST_ACCESS rules as through
// BAR0); the router's local port carries the service block's MGMT packets
// only and drains and counts everything else (kolo_node_local,
// RTR_LOCAL_DROPS). The mmio_* / dma_* / msi_* ports are then unused (their
// readies and valids 0) and stat_counters, stat_e2e_inc, dbg_state are 0.
// With NI_EN = 1 h_axil_* is unused (its readies and valids 0).
module kolo_node #(
    parameter NI_EN       = 1,     // 1: the NI and the BAR0 window; 0: none (see above)
    parameter INJ_CREDITS = 80,
    parameter EJ_DEPTH    = 64,
    parameter DQ          = 64,
    parameter BATCH       = 16,
    parameter HQ_AW       = 6,
    parameter RING_AW     = 9,
    parameter GSLOTS      = 8,
    parameter E2E_NODES   = 16     // end-to-end tables: must cover the torus (docs/ni.md 10)
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   node_id,       // straps: {z,y,x}
    input  wire [11:0]   dim_m1,        // ring sizes - 1
    // MMIO (endpoint user side)
    input  wire          mmio_wr_valid,
    output wire          mmio_wr_ready,
    input  wire [1:0]    mmio_wr_bar,
    input  wire [31:0]   mmio_wr_addr,
    input  wire [511:0]  mmio_wr_data,
    input  wire [63:0]   mmio_wr_strb,
    input  wire          mmio_rd_valid,
    output wire          mmio_rd_ready,
    input  wire [1:0]    mmio_rd_bar,
    input  wire [31:0]   mmio_rd_addr,
    input  wire [3:0]    mmio_rd_len,
    output wire          mmio_rd_resp_valid,
    input  wire          mmio_rd_resp_ready,
    output wire [63:0]   mmio_rd_resp_data,
    output wire          mmio_rd_resp_err,
    // DMA
    output wire          dma_rd_req_valid,
    input  wire          dma_rd_req_ready,
    output wire [63:0]   dma_rd_req_addr,
    output wire [12:0]   dma_rd_req_len,
    output wire [7:0]    dma_rd_req_id,
    input  wire          dma_rd_valid,
    output wire          dma_rd_ready,
    input  wire [255:0]  dma_rd_data,
    input  wire [7:0]    dma_rd_id,
    input  wire          dma_rd_last,
    input  wire          dma_rd_err,
    output wire          dma_wr_valid,
    input  wire          dma_wr_ready,
    output wire [63:0]   dma_wr_addr,
    output wire [12:0]   dma_wr_len,
    output wire [255:0]  dma_wr_data,
    output wire          dma_wr_last,
    output wire          msi_valid,
    input  wire          msi_ready,
    output wire [4:0]    msi_vector,
    // router local port
    output wire          inj_valid,
    output wire [67:0]   inj_flit,
    input  wire          inj_credit_valid,
    input  wire [1:0]    inj_credit_vc,
    input  wire          ej_valid,
    input  wire [67:0]   ej_flit,
    output wire          ej_credit_valid,
    output wire [1:0]    ej_credit_vc,
    // service processor bus
    input  wire          s_axil_awvalid,
    output wire          s_axil_awready,
    input  wire [14:0]   s_axil_awaddr,
    input  wire          s_axil_wvalid,
    output wire          s_axil_wready,
    input  wire [31:0]   s_axil_wdata,
    input  wire [3:0]    s_axil_wstrb,
    output wire          s_axil_bvalid,
    input  wire          s_axil_bready,
    output wire [1:0]    s_axil_bresp,
    input  wire          s_axil_arvalid,
    output wire          s_axil_arready,
    input  wire [14:0]   s_axil_araddr,
    output wire          s_axil_rvalid,
    input  wire          s_axil_rready,
    output wire [31:0]   s_axil_rdata,
    output wire [1:0]    s_axil_rresp,
    output wire          irq,
    // the host's register port (NI_EN = 0): 32-bit AXI4-Lite onto the service block's host port
    input  wire          h_axil_awvalid,
    output wire          h_axil_awready,
    input  wire [14:0]   h_axil_awaddr,
    input  wire          h_axil_wvalid,
    output wire          h_axil_wready,
    input  wire [31:0]   h_axil_wdata,
    input  wire [3:0]    h_axil_wstrb,
    output wire          h_axil_bvalid,
    input  wire          h_axil_bready,
    output wire [1:0]    h_axil_bresp,
    input  wire          h_axil_arvalid,
    output wire          h_axil_arready,
    input  wire [14:0]   h_axil_araddr,
    output wire          h_axil_rvalid,
    input  wire          h_axil_rready,
    output wire [31:0]   h_axil_rdata,
    output wire [1:0]    h_axil_rresp,
    // service processor faults (kolo_sp fault, fault_cause, fault_pc): SP_FAULT event
    input  wire          sp_fault,
    input  wire [3:0]    sp_fault_cause,
    input  wire [31:0]   sp_fault_pc,
    // links and router (port p = X+ X- Y+ Y- Z+ Z-)
    input  wire [5:0]        link_up,
    input  wire [5:0]        link_peer_valid,
    input  wire [6*12-1:0]   link_peer_id,
    input  wire [6*3-1:0]    link_peer_port,
    input  wire [5:0]        link_crc_err,
    input  wire [5:0]        link_replay,
    input  wire [5:0]        link_tx_frame,
    input  wire [5:0]        link_rx_frame,
    output wire [5:0]        link_enable,
    output wire [5:0]        link_loopback,
    input  wire [5:0]        rtr_port_down,
    input  wire [31:0]       rtr_drop_route,
    input  wire [31:0]       rtr_drop_bad,
    input  wire [31:0]       rtr_fault_drops,
    input  wire [7*32-1:0]   rtr_out_flits,
    output wire [5:0]        port_en,
    // NI counters and debug (kolo_ni)
    output wire [6*64-1:0] stat_counters,
    output wire [4:0]    stat_e2e_inc,   // end-to-end counter pulses (kolo_ni)
    output wire [84:0]   dbg_state
);
  wire h_awvalid, h_awready, h_wvalid, h_wready, h_bvalid, h_bready;
  wire h_arvalid, h_arready, h_rvalid, h_rready;
  wire [14:0] h_awaddr, h_araddr;
  wire [31:0] h_wdata, h_rdata;
  wire [3:0] h_wstrb;
  wire [1:0] h_bresp, h_rresp;
  wire rt_lk_valid, rt_switch;
  wire [11:0] rt_lk_id;
  wire [31:0] rt_lk_entry;
  wire mtx_valid, mtx_ready, mrx_valid, mrx_ready;
  wire [65:0] mtx_flit, mrx_flit;

  wire ni_unreachable;
  wire [31:0] local_drops;
  generate
    if (NI_EN != 0 && NI_EN != 1) begin : g_bad_ni_en
      kolo_node_PARAMETER_ERROR_NI_EN_0_or_1 u_error ();
    end
  endgenerate

  /* verilator lint_off PINCONNECTEMPTY */  // the epoch: for monitors only
  kolo_svc u_svc (
      .clk(clk), .rst(rst), .node_id(node_id), .dim_m1(dim_m1),
      .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready), .s_axil_awaddr(s_axil_awaddr),
      .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_wdata(s_axil_wdata),
      .s_axil_wstrb(s_axil_wstrb), .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready),
      .s_axil_bresp(s_axil_bresp), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
      .s_axil_araddr(s_axil_araddr), .s_axil_rvalid(s_axil_rvalid), .s_axil_rready(s_axil_rready),
      .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp),
      .h_axil_awvalid(h_awvalid), .h_axil_awready(h_awready), .h_axil_awaddr(h_awaddr),
      .h_axil_wvalid(h_wvalid), .h_axil_wready(h_wready), .h_axil_wdata(h_wdata), .h_axil_wstrb(h_wstrb),
      .h_axil_bvalid(h_bvalid), .h_axil_bready(h_bready), .h_axil_bresp(h_bresp),
      .h_axil_arvalid(h_arvalid), .h_axil_arready(h_arready), .h_axil_araddr(h_araddr),
      .h_axil_rvalid(h_rvalid), .h_axil_rready(h_rready), .h_axil_rdata(h_rdata), .h_axil_rresp(h_rresp),
      .link_up(link_up), .link_peer_valid(link_peer_valid), .link_peer_id(link_peer_id),
      .link_peer_port(link_peer_port), .link_crc_err(link_crc_err), .link_replay(link_replay),
      .link_tx_frame(link_tx_frame), .link_rx_frame(link_rx_frame),
      .link_enable(link_enable), .link_loopback(link_loopback),
      .rtr_port_down(rtr_port_down), .rtr_drop_route(rtr_drop_route), .rtr_drop_bad(rtr_drop_bad),
      .rtr_fault_drops(rtr_fault_drops), .rtr_local_drops(local_drops), .rtr_out_flits(rtr_out_flits),
      .port_en(port_en),
      .rt_lk_valid(rt_lk_valid), .rt_lk_id(rt_lk_id), .rt_lk_entry(rt_lk_entry),
      .rt_epoch(), .rt_switch(rt_switch), .ni_unreachable(ni_unreachable),
      .mgmt_tx_valid(mtx_valid), .mgmt_tx_ready(mtx_ready), .mgmt_tx_flit(mtx_flit),
      .mgmt_rx_valid(mrx_valid), .mgmt_rx_ready(mrx_ready), .mgmt_rx_flit(mrx_flit),
      .sp_fault(sp_fault), .sp_fault_cause(sp_fault_cause), .sp_fault_pc(sp_fault_pc),
      .irq(irq)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  generate
    if (NI_EN != 0) begin : g_ni
      wire unused_h = &{1'b0, h_axil_awvalid, h_axil_awaddr, h_axil_wvalid, h_axil_wdata, h_axil_wstrb,
                        h_axil_bready, h_axil_arvalid, h_axil_araddr, h_axil_rready};
      assign h_axil_awready = 1'b0;
      assign h_axil_wready = 1'b0;
      assign h_axil_bvalid = 1'b0;
      assign h_axil_bresp = 2'b00;
      assign h_axil_arready = 1'b0;
      assign h_axil_rvalid = 1'b0;
      assign h_axil_rdata = 32'd0;
      assign h_axil_rresp = 2'b00;
      assign local_drops = 32'd0;
      wire ni_wr_valid, ni_wr_ready, ni_rd_valid, ni_rd_ready;
      wire ni_rd_resp_valid, ni_rd_resp_ready, ni_rd_resp_err;
      wire [63:0] ni_rd_resp_data;
      kolo_node_mmio u_mmio (
          .clk(clk), .rst(rst),
          .mmio_wr_valid(mmio_wr_valid), .mmio_wr_ready(mmio_wr_ready), .mmio_wr_bar(mmio_wr_bar),
          .mmio_wr_addr(mmio_wr_addr), .mmio_wr_data(mmio_wr_data), .mmio_wr_strb(mmio_wr_strb),
          .mmio_rd_valid(mmio_rd_valid), .mmio_rd_ready(mmio_rd_ready), .mmio_rd_bar(mmio_rd_bar),
          .mmio_rd_addr(mmio_rd_addr), .mmio_rd_len(mmio_rd_len),
          .mmio_rd_resp_valid(mmio_rd_resp_valid), .mmio_rd_resp_ready(mmio_rd_resp_ready),
          .mmio_rd_resp_data(mmio_rd_resp_data), .mmio_rd_resp_err(mmio_rd_resp_err),
          .ni_mmio_wr_valid(ni_wr_valid), .ni_mmio_wr_ready(ni_wr_ready),
          .ni_mmio_rd_valid(ni_rd_valid), .ni_mmio_rd_ready(ni_rd_ready),
          .ni_mmio_rd_resp_valid(ni_rd_resp_valid), .ni_mmio_rd_resp_ready(ni_rd_resp_ready),
          .ni_mmio_rd_resp_data(ni_rd_resp_data), .ni_mmio_rd_resp_err(ni_rd_resp_err),
          .m_axil_awvalid(h_awvalid), .m_axil_awready(h_awready), .m_axil_awaddr(h_awaddr),
          .m_axil_wvalid(h_wvalid), .m_axil_wready(h_wready), .m_axil_wdata(h_wdata), .m_axil_wstrb(h_wstrb),
          .m_axil_bvalid(h_bvalid), .m_axil_bready(h_bready), .m_axil_bresp(h_bresp),
          .m_axil_arvalid(h_arvalid), .m_axil_arready(h_arready), .m_axil_araddr(h_araddr),
          .m_axil_rvalid(h_rvalid), .m_axil_rready(h_rready), .m_axil_rdata(h_rdata), .m_axil_rresp(h_rresp)
      );


      kolo_ni #(
          .INJ_CREDITS(INJ_CREDITS), .EJ_DEPTH(EJ_DEPTH), .DQ(DQ), .BATCH(BATCH), .HQ_AW(HQ_AW),
          .RING_AW(RING_AW), .GSLOTS(GSLOTS), .E2E_NODES(E2E_NODES)
      ) u_ni (
          .clk(clk), .rst(rst), .svc_node_id(node_id), .svc_dim_m1(dim_m1),
          .svc_en(1'b1), .svc_rt_lk_valid(rt_lk_valid), .svc_rt_lk_id(rt_lk_id), .svc_rt_lk_entry(rt_lk_entry),
          .svc_rt_switch(rt_switch),
          .mgmt_tx_valid(mtx_valid), .mgmt_tx_flit(mtx_flit), .mgmt_tx_ready(mtx_ready),
          .mgmt_rx_valid(mrx_valid), .mgmt_rx_flit(mrx_flit), .mgmt_rx_ready(mrx_ready),
          .mmio_wr_valid(ni_wr_valid), .mmio_wr_ready(ni_wr_ready), .mmio_wr_bar(mmio_wr_bar),
          .mmio_wr_addr(mmio_wr_addr), .mmio_wr_data(mmio_wr_data), .mmio_wr_strb(mmio_wr_strb),
          .mmio_rd_valid(ni_rd_valid), .mmio_rd_ready(ni_rd_ready), .mmio_rd_bar(mmio_rd_bar),
          .mmio_rd_addr(mmio_rd_addr), .mmio_rd_len(mmio_rd_len),
          .mmio_rd_resp_valid(ni_rd_resp_valid), .mmio_rd_resp_ready(ni_rd_resp_ready),
          .mmio_rd_resp_data(ni_rd_resp_data), .mmio_rd_resp_err(ni_rd_resp_err),
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
          .stat_unreachable(ni_unreachable), .stat_counters(stat_counters), .dbg_state(dbg_state),
          .stat_e2e_inc(stat_e2e_inc)
      );
    end else begin : g_no_ni
      // no NI: the host's register port is the service block's host port
      assign h_awvalid = h_axil_awvalid;
      assign h_axil_awready = h_awready;
      assign h_awaddr = h_axil_awaddr;
      assign h_wvalid = h_axil_wvalid;
      assign h_axil_wready = h_wready;
      assign h_wdata = h_axil_wdata;
      assign h_wstrb = h_axil_wstrb;
      assign h_axil_bvalid = h_bvalid;
      assign h_bready = h_axil_bready;
      assign h_axil_bresp = h_bresp;
      assign h_arvalid = h_axil_arvalid;
      assign h_axil_arready = h_arready;
      assign h_araddr = h_axil_araddr;
      assign h_axil_rvalid = h_rvalid;
      assign h_rready = h_axil_rready;
      assign h_axil_rdata = h_rdata;
      assign h_axil_rresp = h_rresp;
      assign ni_unreachable = 1'b0;   // no operations, no lookups
      assign rt_lk_valid = 1'b0;
      assign rt_lk_id = 12'd0;
      wire unused_ni = &{1'b0, rt_lk_entry, rt_switch, mmio_wr_valid, mmio_wr_bar, mmio_wr_addr, mmio_wr_data,
                         mmio_wr_strb, mmio_rd_valid, mmio_rd_bar, mmio_rd_addr, mmio_rd_len, mmio_rd_resp_ready,
                         dma_rd_req_ready, dma_rd_valid, dma_rd_data, dma_rd_id, dma_rd_last, dma_rd_err,
                         dma_wr_ready, msi_ready};
      assign mmio_wr_ready = 1'b0;
      assign mmio_rd_ready = 1'b0;
      assign mmio_rd_resp_valid = 1'b0;
      assign mmio_rd_resp_data = 64'd0;
      assign mmio_rd_resp_err = 1'b0;
      assign dma_rd_req_valid = 1'b0;
      assign dma_rd_req_addr = 64'd0;
      assign dma_rd_req_len = 13'd0;
      assign dma_rd_req_id = 8'd0;
      assign dma_rd_ready = 1'b1;
      assign dma_wr_valid = 1'b0;
      assign dma_wr_addr = 64'd0;
      assign dma_wr_len = 13'd0;
      assign dma_wr_data = 256'd0;
      assign dma_wr_last = 1'b0;
      assign msi_valid = 1'b0;
      assign msi_vector = 5'd0;
      assign stat_counters = {6 * 64{1'b0}};
      assign stat_e2e_inc = 5'd0;
      assign dbg_state = 85'd0;
      kolo_node_local #(
          .INJ_CREDITS(INJ_CREDITS),
          .EJ_DEPTH(EJ_DEPTH)
      ) u_local (
          .clk(clk), .rst(rst),
          .inj_valid(inj_valid), .inj_flit(inj_flit), .inj_credit_valid(inj_credit_valid),
          .inj_credit_vc(inj_credit_vc), .ej_valid(ej_valid), .ej_flit(ej_flit),
          .ej_credit_valid(ej_credit_valid), .ej_credit_vc(ej_credit_vc),
          .mgmt_tx_valid(mtx_valid), .mgmt_tx_flit(mtx_flit), .mgmt_tx_ready(mtx_ready),
          .mgmt_rx_valid(mrx_valid), .mgmt_rx_flit(mrx_flit), .mgmt_rx_ready(mrx_ready),
          .drops(local_drops)
      );
    end
  endgenerate
endmodule
`default_nettype wire
