`timescale 1ns / 1ps
`default_nettype none
// tb_assert - plants one violation of one RTL check and runs on: the check
// must stop the run (tb/assert/run.sh expects a non-zero exit and the source
// line of that check in the output). +plant=<name> picks the violation;
// +plant=none (the control) must run to the end and exit 0.
//
// Each error guard (`KOLO_ASSERT in rtl/) is planted once, through the
// module's ports where a misbehaving neighbour can cause it, otherwise by
// forcing the internal signals the guard reads for one cycle; two `ifdef
// FORMAL properties of the common cells are planted by forcing state no
// reachable run has. The same file runs under Verilator (--binary --timing
// $(VL_CHECKS)) and Icarus (-g2012).
module tb_assert;
  reg clk = 1'b0;
  reg rst = 1'b1;
  always #5 clk = ~clk;

  // ---- kolo_router (default parameters): credits, input buffer -------------
  // stimulus on the local port (6) only; whole-vector signals built from
  // plain registers (Verilator 5.006 loses non-blocking writes to a part of a
  // wide vector from a suspended initial block)
  reg            l_valid = 1'b0;
  reg  [67:0]    l_flit = 68'd0;
  reg            x_credit = 1'b0;  // a credit returned on port 0 (X+), VC x_credit_vc
  reg  [1:0]     x_credit_vc = 2'd0;
  wire [6:0]     r_in_valid = {l_valid, 6'd0};
  wire [7*68-1:0] r_in_flit = {l_flit, {6 * 68{1'b0}}};
  wire [6:0]     r_out_credit_valid = {6'd0, x_credit};
  wire [7*2-1:0] r_out_credit_vc = {12'd0, x_credit_vc};
  /* verilator lint_off PINCONNECTEMPTY */
  kolo_router u_router (
      .clk(clk), .rst(rst),
      .cfg_node_id(12'h000), .cfg_dim_m1(12'h000), .cfg_port_en(6'd0), .port_down(6'd0),
      .in_valid(r_in_valid), .in_flit(r_in_flit),
      .in_credit_valid(), .in_credit_vc(),
      .out_valid(), .out_flit(), .out_sunk(),
      .out_credit_valid(r_out_credit_valid), .out_credit_vc(r_out_credit_vc),
      .stat_errors(), .stat_out_flits(), .stat_fault_drops(), .dbg_vc_occ(), .dbg_vc_route()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- NI cells -------------------------------------------------------------
  // kolo_ni_tags
  reg t_alloc = 1'b0, t_free = 1'b0;
  reg [7:0] t_free_tag = 8'd0;
  wire t_alloc_valid;
  wire [7:0] t_alloc_tag;
  /* verilator lint_off PINMISSING */
  kolo_ni_tags u_tags (
      .clk(clk), .rst(rst), .alloc_valid(t_alloc_valid), .alloc_tag(t_alloc_tag),
      .alloc(t_alloc), .free(t_free), .free_tag(t_free_tag),
      .st_we(1'b0), .st_wtag(8'd0), .st_wdata(204'd0), .rd_tag(8'd0),
      .dy_we(1'b0), .dy_wtag(8'd0), .dy_wdata(95'd0)
  );
  // kolo_ni_inj: credits returned beyond CREDITS
  reg i_credit_valid = 1'b0;
  kolo_ni_inj u_inj (
      .clk(clk), .rst(rst), .src_valid(2'b00), .src_flit(132'd0), .src_cls(2'b00),
      .inj_credit_valid(i_credit_valid), .inj_credit_vc(2'd0)
  );
  // kolo_ni_ej (DEPTH 64): flits sent beyond the credits
  reg e_valid = 1'b0;
  reg [67:0] e_flit = 68'd0;
  kolo_ni_ej u_ej (
      .clk(clk), .rst(rst), .ej_valid(e_valid), .ej_flit(e_flit), .pk_ready(2'b00)
  );
  // kolo_ni_txq (2 headers, 8 beats)
  reg q_push = 1'b0, q_dma = 1'b0, q_dv = 1'b0;
  reg [3:0] q_nbeats = 4'd1;
  kolo_ni_txq #(
      .HQ_AW(1),
      .RING_AW(3)
  ) u_txq (
      .clk(clk), .rst(rst), .push(q_push), .push_h0(64'd0), .push_h1(64'd0),
      .push_nbeats(q_nbeats), .push_dma(q_dma), .push_cls(1'b0), .push_beat(256'd0),
      .dv(q_dv), .dd(256'd0), .did(1'b0), .dlast(1'b0), .derr(1'b0), .s_ready(1'b0),
      .le_ready(1'b1)
  );
  // kolo_ni_ctx: counters of context 0 taken below zero
  reg c_take = 1'b0, c_put_dec = 1'b0, c_retire = 1'b0;
  kolo_ni_ctx u_ctx (
      .clk(clk), .rst(rst), .en_set(1'b0), .en_ctx(4'd0), .en_cq_log2(4'd0), .dis_set(1'b0),
      .dis_ctx(4'd0), .cfg_err(1'b0), .cfg_err_ctx(4'd0), .db_err(1'b0), .db_err_ctx(4'd0),
      .db_err_code(8'd0), .tx_err(1'b0), .tx_err_ctx(4'd0), .take(c_take), .take_ctx(4'd0),
      .ops_inc(1'b0), .ops_inc_ctx(4'd0), .put_inc(1'b0), .put_inc_ctx(4'd0),
      .put_dec(c_put_dec), .put_dec_ctx(4'd0), .retire(c_retire), .retire_ctx(4'd0),
      .retire_written(1'b0), .retire_tagged(1'b1), .ci_wr(1'b0), .ci_ctx(4'd0),
      .ci_value(16'd0), .rd_ctx(4'd0), .cq_ctx(4'd0)
  );
  // kolo_ni_e2e: a second original packet on a tag with one in flight
  reg p_push = 1'b0;
  kolo_ni_e2e u_e2e (
      .clk(clk), .rst(rst), .dim_m1(12'h111), .cfg_en(1'b1), .cfg_timeout(32'hffff_ffff),
      .cfg_retries(4'd1), .cfg_switch(1'b0), .push(p_push), .push_rtx(1'b0), .push_tag(8'd5),
      .push_dst(12'h001), .push_h0(64'd0), .push_h1(64'd0), .push_nbeats(4'd1),
      .push_dma(1'b0), .push_beat(256'd0), .push_laddr(64'd0), .push_rsy(1'b0), .chk_tag(8'd0),
      .rt_ready(1'b0), .rt_done(1'b0), .lk_gnt(1'b0), .lk_rvalid(1'b0), .lk_entry(32'd0),
      .lk_ok(1'b0), .rd_tag(8'd0), .ans(1'b0), .ans_tag(8'd0), .ans_done(1'b0), .gu_ready(1'b1)
  );
  // kolo_svc: service processor fault pulses too close together
  reg s_fault = 1'b0;
  kolo_svc u_svc (
      .clk(clk), .rst(rst), .node_id(12'h000), .dim_m1(12'h000), .sp_fault(s_fault),
      .sp_fault_cause(4'd1), .sp_fault_pc(32'd0)
  );
  // ---- PCIe endpoint --------------------------------------------------------
  // kolo_pcie_dma_rd: a completion space of 64 headers and 992 data credits;
  // d_req asks for one read of 64 bytes at address 0 (tag 0, 1 header and 5
  // data credits reserved); no completion ever comes
  reg d_req = 1'b0;
  kolo_pcie_dma_rd u_dma (
      .clk(clk), .rst(rst), .cfg_req_id(16'h0100), .cfg_max_read_req(3'd0), .cfg_bus_master(1'b1),
      .cfg_cpl_hdr(12'd64), .cfg_cpl_data(16'd992), .dma_rd_req_valid(d_req), .dma_rd_req_addr(64'd0),
      .dma_rd_req_len(13'd64), .dma_rd_req_id(8'd0), .dma_rd_ready(1'b1), .cpl_valid(1'b0),
      .cpl_hdr(128'd0), .cpl_data(256'd0), .cpl_sop(1'b0), .cpl_eop(1'b0), .cpl_dw_en(8'd0),
      .mrd_ready(1'b1)
  );
  // kolo_pcie_ep_rx: BAR0 at 0; x_tlp sends one memory read of 1 DW at BAR0
  // offset 0 (3-DW header: DW0 MRd, Length 1; DW1 first byte enables 0xf)
  reg x_tlp = 1'b0;
  kolo_pcie_ep_rx u_eprx (
      .clk(clk), .rst(rst), .rx_tlp_valid(x_tlp), .rx_tlp_hdr({64'd0, 32'h0000_000f, 32'h0000_0001}),
      .rx_tlp_data(256'd0), .rx_tlp_sop(1'b1), .rx_tlp_eop(1'b1), .rx_tlp_dw_en(8'd0),
      .rx_cpl_valid(1'b0), .rx_cpl_hdr(128'd0), .rx_cpl_data(256'd0), .rx_cpl_sop(1'b0),
      .rx_cpl_eop(1'b0), .rx_cpl_dw_en(8'd0), .cfg_bar0(64'd0), .cfg_bar2(64'h1_0000_0000),
      .mmio_wr_ready(1'b1), .np_ready(1'b1)
  );
  // kolo_ni_csr: n_rd reads BAR0 offset 0 (every other input held at zero)
  reg n_rd = 1'b0;
  kolo_ni_csr u_csr (
      .clk(clk), .rst(rst), .svc_node_id(12'd0), .svc_dim_m1(12'd0), .mmio_wr_valid(1'b0),
      .mmio_wr_bar(2'd0), .mmio_wr_addr(32'd0), .mmio_wr_data(512'd0), .mmio_wr_strb(64'd0),
      .mmio_rd_valid(n_rd), .mmio_rd_bar(2'd0), .mmio_rd_addr(32'd0), .mmio_rd_len(4'd8),
      .mmio_rd_resp_ready(1'b1), .ctx_enabled(16'd0), .ctx_run(16'd0), .pio_ready(1'b1),
      .sqc_ctx(4'd0), .cqc_ctx(4'd0), .win_idx(4'd0), .rt_done(1'b0), .rt_rdata(32'd0),
      .st_code(8'd0), .st_en(1'b0), .st_err(1'b0), .st_ops(32'd0), .st_puts(32'd0),
      .ci_all(256'd0), .err_inc(2'd0), .inc_tx(1'b0), .inc_rx(2'd0), .inc_nak_sent(1'b0),
      .inc_nak_rcvd(1'b0), .inc_bad(2'd0), .inc_dma_err(2'd0), .inc_e2e(5'd0)
  );
  // kolo_ni_atomic (32 slots): a_take takes atomics on bytes [0, 8) (a_chain:
  // as an atomic that may follow a chain), a_rd brings read data for slot 0
  reg a_take = 1'b0, a_rd = 1'b0, a_chain = 1'b0;
  kolo_ni_atomic u_atomic (
      .clk(clk), .rst(rst), .q_lo(49'd0), .q_end(49'd8), .q_atomic(a_chain), .take(a_take), .t_addr(48'd0),
      .t_op(4'd0), .t_s4(1'b0), .t_fetch(1'b1), .t_opnd(64'd1), .t_cmp(64'd0), .t_tag(8'd0),
      .t_gen(1'b0), .t_dst(12'd0), .t_rs(23'd0), .rq_ready(1'b0), .rd_valid(a_rd),
      .rd_data(64'd0), .rd_slot(6'd0), .rd_err(1'b0), .wr_fire(1'b0), .resp_take(1'b0)
  );
  // kolo_pcie_shim_us (rtl/platform/xilinx) built without its sequence-number
  // window (BUG_NO_SEQ_THROTTLE, the planted bug of test-unit-pcie-shim-bites);
  // u_tlp sends 1-DW memory writes (3-DW header) to RQ, which takes every beat,
  // and the block never reports a sequence number; other inputs at zero
  reg u_tlp = 1'b0;
  kolo_pcie_shim_us #(
      .BUG_NO_SEQ_THROTTLE(1)
  ) u_shim_us (
      .clk(clk), .rst(rst), .m_axis_cq_tvalid(1'b0), .m_axis_cq_tdata(256'd0), .m_axis_cq_tuser(85'd0),
      .m_axis_cq_tlast(1'b0), .m_axis_cq_tkeep(8'd0), .m_axis_rc_tvalid(1'b0), .m_axis_rc_tdata(256'd0),
      .m_axis_rc_tuser(75'd0), .m_axis_rc_tlast(1'b0), .m_axis_rc_tkeep(8'd0), .s_axis_cc_tready(4'd0),
      .s_axis_rq_tready(4'hf), .pcie_rq_seq_num(4'd0), .pcie_rq_seq_num_vld(1'b0), .cfg_max_payload(3'd0),
      .cfg_max_read_req(3'd0), .cfg_function_status(16'd0), .cfg_interrupt_msi_enable(2'd0),
      .cfg_interrupt_msi_sent(1'b0), .cfg_interrupt_msi_fail(1'b0), .ep_rx_tlp_ready(1'b0),
      .ep_rx_cpl_ready(1'b0), .ep_np_credit(1'b0), .ep_tx_tlp_valid(u_tlp),
      .ep_tx_tlp_hdr({32'd0, 32'h0000_1000, 32'h0000_000f, 32'h4000_0001}), .ep_tx_tlp_data(256'd0),
      .ep_tx_tlp_sop(1'b1), .ep_tx_tlp_eop(1'b1), .ep_tx_tlp_dw_en(8'h01)
  );
  // kolo_pcie_shim_npfc (rtl/platform/common): f_take starts memory reads
  // (DW0 bits 31:24 zero) at the block's interface; no credit ever comes
  reg f_take = 1'b0;
  kolo_pcie_shim_npfc u_npfc (
      .clk(clk), .rst(rst), .credit(1'b0), .take(f_take), .take_dw0(8'h00)
  );
  /* verilator lint_on PINMISSING */
  // kolo_chip_np_credit: u_npc gives credits that no request uses; the PCIe
  // side runs on the same clock
  reg u_npc = 1'b0;
  /* verilator lint_off PINCONNECTEMPTY */
  kolo_chip_np_credit #(
      .MAX_CREDITS(16)
  ) u_np_credit (
      .clk(clk), .rst(rst), .rst_pcie_core(rst), .s_credit(u_npc), .s_rx_take(1'b0), .s_rx_dw0(8'd0),
      .pcie_clk(clk), .rst_pcie(rst), .m_credit()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // kolo_ni_nidx: the torus size is a strap; a change out of reset stops the run
  reg [11:0] n_dim = 12'h111;
  /* verilator lint_off PINCONNECTEMPTY */
  kolo_ni_nidx u_nidx (
      .clk(clk), .rst(rst), .id(12'h000), .dim_m1(n_dim), .idx(), .ok()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- common cells: `ifdef FORMAL properties -------------------------------
  /* verilator lint_off PINCONNECTEMPTY */
  kolo_fifo_sync #(
      .WIDTH(2),
      .DEPTH(4)
  ) u_fifo (
      .clk(clk), .rst(rst), .in_valid(1'b0), .in_ready(), .in_data(2'd0), .out_valid(),
      .out_ready(1'b0), .out_data(), .count()
  );
  kolo_arb_rr #(
      .N(4)
  ) u_arb (
      .clk(clk), .rst(rst), .req(4'd0), .advance(1'b0), .grant()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- stimulus ---------------------------------------------------------------
  // a header flit 0 for this 1x1x1 torus (node 0): eject here, payload len.
  // The route state's signs are set (no hops: they change nothing) so that
  // Icarus runs the route compute's always @(*), which waits for an input
  // to change.
  function [67:0] head0(input [1:0] vc, input [5:0] len);
    head0 = {vc, 1'b1, 1'b0, 5'd0, 20'd0, 3'b111, 1'b0, len, vc[1], 4'd0, 12'd0, 12'd0};
  endfunction

  reg [8*24-1:0] plant;
  integer k;
  initial begin
    if (!$value$plusargs("plant=%s", plant)) plant = "none";
    repeat (4) @(posedge clk);
    rst <= 1'b0;
    repeat (300) @(posedge clk);  // the NI's tag list fills (256 cycles)
    case (plant)
      "none": ;
      // kolo_router_output: a credit returned on a class-1 VC ({0,1}) whose
      // counter is full
      "router_credit": begin
        x_credit_vc <= 2'd1;
        x_credit <= 1'b1;
        @(posedge clk) x_credit <= 1'b0;
      end
      // kolo_router_output: a credit returned on an escape VC ({0,0}) while no
      // packet holds one of its slots
      "router_slot": begin
        x_credit_vc <= 2'd0;
        x_credit <= 1'b1;
        @(posedge clk) x_credit <= 1'b0;
      end
      // kolo_router input buffer: local packets on VC 0 for this node while the
      // NI returns no credits: ejection stops after EJECT_CREDITS, then the
      // input buffer fills, and a sender ignoring its credits overflows it
      "router_overflow": begin
        for (k = 0; k < 2000; k = k + 1) begin
          l_valid <= 1'b1;
          l_flit <= (k % 34 == 0) ? head0(2'd0, 6'd32) : {2'd0, 1'b0, k % 34 == 33, 64'd0};
          @(posedge clk);
        end
        l_valid <= 1'b0;
      end
      "tags_alloc": begin  // every tag taken, then one more
        t_alloc <= 1'b1;
        for (k = 0; k < 300; k = k + 1) @(posedge clk);
        t_alloc <= 1'b0;
      end
      "tags_free": begin  // a tag freed that is free (one taken first: the list has room)
        t_alloc <= 1'b1;
        t_free_tag <= t_alloc_tag ^ 8'd1;
        @(posedge clk) t_alloc <= 1'b0;
        t_free <= 1'b1;
        @(posedge clk) t_free <= 1'b0;
      end
      "tags_list": begin  // a tag freed while the free list has no room
        t_alloc <= 1'b1;
        t_free_tag <= t_alloc_tag;  // the tag this allocation takes
        @(posedge clk) t_alloc <= 1'b0;
        t_free <= 1'b1;
        force u_tags.fl_in_ready = 1'b0;
        @(posedge clk) t_free <= 1'b0;
        #1 release u_tags.fl_in_ready;
      end
      "inj_credit": begin
        i_credit_valid <= 1'b1;
        @(posedge clk) i_credit_valid <= 1'b0;
      end
      "ej_overflow": begin  // 100 flits on VC 0 against 64 credits, nothing read
        for (k = 0; k < 100; k = k + 1) begin
          e_valid <= 1'b1;
          e_flit <= {2'd0, k == 0, 1'b0, 64'd0};
          @(posedge clk);
        end
        e_valid <= 1'b0;
      end
      "ej_whole": begin  // a packet being read out runs dry
        force u_ej.g_vnet[0].busy = 1'b1;
        @(posedge clk);
        #1 release u_ej.g_vnet[0].busy;
      end
      "txq_full": begin  // three one-beat pushes into a two-entry queue, nothing sent
        q_push <= 1'b1;
        repeat (3) @(posedge clk);
        q_push <= 1'b0;
      end
      "txq_dv": begin  // a pushed beat in the cycle of a DMA beat
        q_push <= 1'b1;
        q_dv <= 1'b1;
        @(posedge clk) q_push <= 1'b0;
        q_dv <= 1'b0;
      end
      "txq_beats": begin  // a push of zero beats
        q_push <= 1'b1;
        q_nbeats <= 4'd0;
        @(posedge clk) q_push <= 1'b0;
      end
      "ctx_take": begin  // a slot taken from a context with none free
        c_take <= 1'b1;
        @(posedge clk) c_take <= 1'b0;
      end
      "ctx_retire": begin  // an operation retired that was never counted
        c_retire <= 1'b1;
        @(posedge clk) c_retire <= 1'b0;
      end
      "ctx_put": begin  // a PUT completed that was never counted
        c_put_dec <= 1'b1;
        @(posedge clk) c_put_dec <= 1'b0;
      end
      "e2e_pend": begin  // two original packets pushed on tag 5
        p_push <= 1'b1;
        repeat (2) @(posedge clk);
        p_push <= 1'b0;
      end
      "svc_fault": begin  // two pulses in a row while an overflow event holds the first
        force u_svc.mbx_ovf_push = 1'b1;
        s_fault <= 1'b1;
        repeat (2) @(posedge clk);
        s_fault <= 1'b0;
        #1 release u_svc.mbx_ovf_push;
      end
      // kolo_pcie_dma_rd: a completion gives back a header credit while none
      // is reserved (the space forced to its maximum, so that the reservation
      // going below zero breaks only this check)
      "pcie_rd_back": begin
        force u_dma.cr_h_all = 13'h1fff;
        force u_dma.rel_c_h = 7'd1;
        @(posedge clk);
        #1 release u_dma.rel_c_h;
        release u_dma.cr_h_all;
      end
      "pcie_rd_space": begin  // 100 headers reserved in a space of 64
        force u_dma.cr_h = 13'd100;
        @(posedge clk);
        #1 release u_dma.cr_h;
      end
      // a completion of the read on tag 0 (its header all zero: 4096 bytes)
      // taken as a good one that is not the last: the rest of the read would
      // need more credits than the read reserved
      "pcie_rd_rest": begin
        d_req <= 1'b1;
        @(posedge clk) d_req <= 1'b0;
        repeat (20) @(posedge clk);
        force u_dma.c_cr_upd = 1'b1;
        @(posedge clk);
        #1 release u_dma.c_cr_upd;
      end
      // kolo_pcie_ep_rx: a read offered to the completer before 5 write chunks
      // that (as the forced count of chunks loaded says) arrived before it
      "pcie_rx_order": begin
        force u_eprx.sim_loaded = 5;
        x_tlp <= 1'b1;
        @(posedge clk) x_tlp <= 1'b0;
        repeat (20) @(posedge clk);
        release u_eprx.sim_loaded;
      end
      // kolo_ni_csr: a read decoded while (as the forced count says) a write
      // accepted before it has not been executed
      "csr_rd_order": begin
        force u_csr.sim_need = 1;
        n_rd <= 1'b1;
        @(posedge clk) n_rd <= 1'b0;
        repeat (20) @(posedge clk);
        release u_csr.sim_need;
      end
      // kolo_ni_atomic: atomics taken on a word in use (and beyond the free
      // slots), and read data for a slot with no atomic
      "atomic_take": begin
        a_take <= 1'b1;
        repeat (20) @(posedge clk);
        a_take <= 1'b0;
      end
      "atomic_rd": begin
        a_rd <= 1'b1;
        @(posedge clk) a_rd <= 1'b0;
      end
      // kolo_ni_atomic: an atomic taken as the follower of two chain tails
      // at once (the tail match forced to slots 0 and 1)
      "atomic_chain": begin
        force u_atomic.ch = 32'h3;
        a_chain <= 1'b1;
        a_take <= 1'b1;
        @(posedge clk) a_take <= 1'b0;
        repeat (2) @(posedge clk);
        release u_atomic.ch;
      end
      // kolo_pcie_shim_us: 40 memory writes offered, none confirmed: the 17th
      // goes out with 16 unconfirmed (the window that should hold it is off)
      "shim_us_window": begin
        u_tlp <= 1'b1;
        repeat (40) @(posedge clk);
        u_tlp <= 1'b0;
      end
      // kolo_chip_np_credit: 20 credits given, none used: the 17th is one more
      // than the core's queue can hold
      "np_credit_owed": begin
        u_npc <= 1'b1;
        repeat (20) @(posedge clk);
        u_npc <= 1'b0;
      end
      // kolo_pcie_shim_npfc: a memory read taken with no non-posted credit
      "npfc_credit": begin
        f_take <= 1'b1;
        @(posedge clk) f_take <= 1'b0;
      end
      // kolo_ni_nidx: the torus size changed out of reset (its tables would lag it)
      "nidx_strap": begin
        n_dim <= 12'h222;
        @(posedge clk);
      end
      // `ifdef FORMAL properties (Verilator builds only: Icarus runs without FORMAL)
      "fifo_count": begin  // count beyond DEPTH
        force u_fifo.used = 3'd5;
        @(posedge clk);
        #1 release u_fifo.used;
      end
      "arb_mask": begin  // a priority mask that is not a thermometer code
        force u_arb.mask = 4'b0101;
        @(posedge clk);
        #1 release u_arb.mask;
      end
      default: begin
        $display("tb_assert: unknown plant %0s", plant);
        $fatal(1);
      end
    endcase
    repeat (200) @(posedge clk);
    $display("tb_assert: plant %0s: no check fired", plant);
    $finish;
  end
endmodule
`default_nettype wire
