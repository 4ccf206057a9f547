`default_nettype none
// kolo_ni - the kolo network interface: host queues and PIO on one side
// (the user side of the PCIe endpoint core kolo_pcie_ep, docs/ni.md
// section 6, mirrored), the router's local port on the other.
//
//   kolo_ni_csr    BAR0 registers, windows, context config, PIO hand-off
//   kolo_ni_route  routing table (4096 x 32, by node id)
//   kolo_ni_ctx    per-context state, OUTSTANDING, CQ accounting
//   kolo_ni_sq     send queues: doorbells, descriptor fetch and prefetch
//   kolo_ni_tx     send engine: checks, tags, packets (PUT, GET, atomics)
//   kolo_ni_txq    packet queue with payload ring, PUT payload DMA reads
//   kolo_ni_tags   256 tags, tag table
//   kolo_ni_tgt    target side: windows, host memory, responses
//   kolo_ni_rsp    response side: ACK/NAK/GET_RESP by tag, completions
//   kolo_ni_cq     completion entries, MSI
//   kolo_ni_inj    injection: requests and responses against router credits
//   kolo_ni_ej     ejection buffers, whole packets per vnet, credit return
//   kolo_ni_e2e    end-to-end reliability: timers, retransmission, quarantine
//                  (the target's duplicate records are in kolo_ni_tgt)
//   kolo_ni_mgmt   the service block's MGMT packets beside the responses (vnet 1)
//
// Shared host ports: DMA read requests from the send queues, the send
// engine and the target side are granted round robin (one per cycle); the
// read data is steered by id (00 payload, 01 descriptors, 1x target side)
// and always accepted (dma_rd_ready = 1: every read has its buffer reserved
// when issued, so one slow consumer never blocks the others). DMA writes
// from the target side, the response side and the completion writer are
// granted round robin per request (held from its offer to its last beat). The router local
// port: inj_* against INJ_CREDITS per VC (the router's VC_DEPTH), ej_*
// with EJ_DEPTH-flit buffers per VC (the router's EJECT_CREDITS).
// Service inputs: node id and torus size (ring sizes - 1), read-only from
// the host (NODE_ID, TORUS); straps: change them only in reset, at least 2
// cycles before its end (kolo_ni_nidx's tables follow the size). Service block (kolo_svc, docs/svc.md): its
// MGMT packets enter on mgmt_tx_* and leave on mgmt_rx_* ({head, tail,
// data}, valid/ready per flit) and every route lookup reads the service
// block's active table (svc_rt_lk_*) instead of the BAR0-written one, when
// the strap svc_en is 1 (and SVC_ROUTE is 1: with 0, svc_en carries only
// MGMT and the BAR0 table stays in use). With svc_en = 0 (no service block) MGMT packets are
// dropped and counted as bad packets, as any response with an unknown tag.
module kolo_ni #(
    parameter INJ_CREDITS = 80,
    parameter EJ_DEPTH    = 64,
    parameter DQ          = 64,   // descriptors buffered per context (covers a DMA round trip)
    parameter BATCH       = 16,   // descriptors per fetch read (four in flight per context)
    parameter HQ_AW       = 6,    // send packet queue: 2^HQ_AW packets
    parameter RING_AW     = 9,    // send payload ring: 2^RING_AW beats of 32 bytes
    parameter GSLOTS      = 8,    // target GET response buffers
    parameter ATOMICS     = 32,   // target atomics in flight (1..32; the endpoint has 32 read tags; one word: a chain)
    parameter E2E_NODES   = 16,   // end-to-end tables: node indices 0..E2E_NODES-1 (docs/ni.md 10)
    // 1: svc_en also routes by the service block's table (kolo_node). 0: svc_en carries only
    // MGMT and lookups keep reading the BAR0 table (kolo-sim --ni=rtl, where the C service
    // block model installs its tables through BAR0 route writes).
    parameter SVC_ROUTE   = 1
) (
    input  wire          clk,
    input  wire          rst,
    // service
    input  wire [11:0]   svc_node_id,
    input  wire [11:0]   svc_dim_m1,
    input  wire          svc_en,
    output wire          svc_rt_lk_valid,
    output wire [11:0]   svc_rt_lk_id,
    input  wire [31:0]   svc_rt_lk_entry,
    input  wire          svc_rt_switch,   // the service block switched tables (end-to-end timers)
    input  wire          mgmt_tx_valid,
    input  wire [65:0]   mgmt_tx_flit,
    output wire          mgmt_tx_ready,
    output wire          mgmt_rx_valid,
    output wire [65:0]   mgmt_rx_flit,
    input  wire          mgmt_rx_ready,
    // MMIO write
    input  wire          mmio_wr_valid,
    output wire          mmio_wr_ready,
    input  wire [1:0]    mmio_wr_bar,
    input  wire [31:0]   mmio_wr_addr,
    input  wire [511:0]  mmio_wr_data,
    input  wire [63:0]   mmio_wr_strb,
    // MMIO read
    input  wire          mmio_rd_valid,
    output wire          mmio_rd_ready,
    input  wire [1:0]    mmio_rd_bar,
    input  wire [31:0]   mmio_rd_addr,
    input  wire [3:0]    mmio_rd_len,
    output wire          mmio_rd_resp_valid,
    input  wire          mmio_rd_resp_ready,
    output wire [63:0]   mmio_rd_resp_data,
    output wire          mmio_rd_resp_err,
    // DMA read
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
    // DMA write
    output wire          dma_wr_valid,
    input  wire          dma_wr_ready,
    output wire [63:0]   dma_wr_addr,
    output wire [12:0]   dma_wr_len,
    output wire [255:0]  dma_wr_data,
    output wire          dma_wr_last,
    // MSI
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
    // one pulse per operation completed with BAD_DST for want of a valid route,
    // at the descriptor or given up end to end (the service block's RT_UNREACHABLE)
    output wire          stat_unreachable,
    // end-to-end counter pulses {unreach, timeout, dup_resp, dup_req, retx} (E2E_* CSRs,
    // at most one of each per cycle): kolo-sim --ni=rtl adds them up for its oracle
    // without reading BAR0 in the middle of the hosts' traffic (E2E_RESYNC is not among them:
    // the C model sends no RESYNC)
    output wire [4:0]    stat_e2e_inc,
    // counters: {dma_err, bad_pkts, nak_rcvd, nak_sent, rx_pkts, tx_pkts}, 64 bits each
    output wire [6*64-1:0] stat_counters,
    // debug: {free tags 9, state machines: cq 4, rsp 8, txq 16, tx 16, tgt 32} (for testbenches)
    output wire [84:0]   dbg_state
);
  `include "kolo_ni_regs.vh"
  // ---- wires ----------------------------------------------------------------------------
  // csr <-> ctx, sq
  wire en_set, dis_set, cfg_err;
  wire [3:0] en_ctx, dis_ctx, cfg_err_ctx, en_cq_log2;
  wire db_sq, db_cq;
  wire [3:0] db_ctx;
  wire [15:0] db_value;
  wire [15:0] ctx_enabled, ctx_run, ctx_room, ctx_ops_idle;
  wire pio_valid, pio_ready, pio_next_valid, pio_next_fence;
  wire [3:0] pio_ctx, pio_next_ctx;
  wire [511:0] pio_data;
  wire [16*4-1:0] sq_log2_all, cq_log2_all;
  wire [3:0] sqc_ctx, cqc_ctx;
  wire [63:0] sqc_base, cqc_base;
  wire cqc_msi;
  wire [3:0] cqc_vec;
  wire [3:0] win_idx;
  wire [63:0] win_base;
  wire [64:0] win_end;
  wire [31:0] win_ctrl;
  wire rt_mm_req, rt_mm_we, rt_mm_done, rt_mm_in;
  wire [11:0] rt_mm_idx;
  wire [31:0] rt_mm_wdata, rt_mm_rdata;
  wire [3:0] st_ctx;
  wire [7:0] st_code;
  wire st_en, st_err;
  wire [31:0] st_ops, st_puts;
  wire [16*16-1:0] ci_all;
  wire ci_bad, db_drop;
  // routing lookups: 0 target, 1 send engine, 2 end-to-end retransmission
  wire [2:0] lk_req, lk_gnt, lk_rvalid;
  wire [35:0] lk_id;
  wire [31:0] lk_entry;
  wire lk_ok;
  // sq
  wire bdb;
  wire [3:0] bdb_ctx;
  wire [15:0] bdb_pend;
  wire bdb_clr;
  wire [3:0] bdb_clr_ctx;
  wire [15:0] head_valid;
  wire [3:0] dq_ctx;
  wire [255:0] dq_desc;
  wire dq_err, dq_take;
  wire [3:0] dq_take_ctx;
  // ctx accounting
  wire tx_stop;
  wire [3:0] tx_stop_ctx;
  wire take, ops_inc, put_inc, put_dec, retire, retire_written, retire_tagged;
  wire [3:0] take_ctx, ops_inc_ctx, put_inc_ctx, put_dec_ctx, retire_ctx;
  wire [15:0] cq_pi;
  // tags
  wire tag_valid, tag_alloc, tag_free, st_we, dy_we, tag_busy;
  wire [7:0] tag, free_tag, st_wtag, rd_tag, dy_wtag;
  wire [203:0] st_wdata, st_rdata;
  wire [94:0] dy_rdata, dy_wdata;
  wire [8:0] tags_free;
  // completion events: 0 send engine, 1 response side
  wire [1:0] ev_valid, ev_ready;
  wire [2*102-1:0] ev_data;
  // packet queue
  wire hq_room, push_beat_ok, push, push_dma, push_cls;
  wire [RING_AW:0] ring_free;
  wire [HQ_AW-1:0] push_idx;
  wire [63:0] push_h0, push_h1;
  wire [3:0] push_nbeats;
  wire [255:0] push_beat;
  wire le_valid;
  wire [7:0] le_tag;
  // injection sources: 0 requests, 1 responses
  wire [1:0] src_valid, src_ready, src_cls;
  wire [2*66-1:0] src_flit;
  // ejection streams: 0 requests, 1 responses
  wire [1:0] pk_valid, pk_ok, pk_ready;
  wire [2*66-1:0] pk_flit;
  // DMA read requests: 0 sq, 1 tx, 2 tgt
  wire [2:0] rq_valid, rq_ready;
  wire [3*64-1:0] rq_addr;
  wire [3*13-1:0] rq_len;
  wire [3*8-1:0] rq_id;
  // DMA writes: 0 tgt, 1 rsp, 2 cq
  wire [2:0] wq_valid, wq_ready, wq_last;
  wire [3*64-1:0] wq_addr;
  wire [3*13-1:0] wq_len;
  wire [3*256-1:0] wq_data;
  // statistics
  // the NI's packet counters leave out the service block's MGMT packets
  // (counted in its MBX_TX_COUNT / MBX_RX_COUNT)
  wire inj_pkt, mgmt_tx_head, rsp_head;
  wire [1:0] ej_heads;
  wire inc_tx = inj_pkt && !mgmt_tx_head;
  wire [1:0] inc_rx = {rsp_head, ej_heads[0]};
  wire unused_ej_heads = ej_heads[1];
  wire nak_sent, nak_rcvd, bad_tgt, bad_rsp;
  wire inc_dma = dma_rd_valid && dma_rd_last && dma_rd_err;
  wire [31:0] dbg_tgt;
  wire [15:0] dbg_tx, dbg_txq;
  wire [7:0] dbg_rsp;
  wire [3:0] dbg_cq;
  assign dbg_state = {tags_free, dbg_cq, dbg_rsp, dbg_txq, dbg_tx, dbg_tgt};

  // end-to-end configuration (u_csr) and events (u_e2e)
  wire e2e_en, e2e_sw_csr, rt_chg;
  wire [3:0] e2e_retries;
  wire [31:0] e2e_timeout;
  wire inc_retx, inc_timeout, inc_unreach, dup_req, dup_resp, inc_resync;

  // ---- registers ------------------------------------------------------------------------
  kolo_ni_csr u_csr (
      .clk(clk), .rst(rst),
      .svc_node_id(svc_node_id), .svc_dim_m1(svc_dim_m1),
      .mmio_wr_valid(mmio_wr_valid), .mmio_wr_ready(mmio_wr_ready), .mmio_wr_bar(mmio_wr_bar),
      .mmio_wr_addr(mmio_wr_addr), .mmio_wr_data(mmio_wr_data), .mmio_wr_strb(mmio_wr_strb),
      .mmio_rd_valid(mmio_rd_valid), .mmio_rd_ready(mmio_rd_ready), .mmio_rd_bar(mmio_rd_bar),
      .mmio_rd_addr(mmio_rd_addr), .mmio_rd_len(mmio_rd_len),
      .mmio_rd_resp_valid(mmio_rd_resp_valid), .mmio_rd_resp_ready(mmio_rd_resp_ready),
      .mmio_rd_resp_data(mmio_rd_resp_data), .mmio_rd_resp_err(mmio_rd_resp_err),
      .en_set(en_set), .en_ctx(en_ctx), .en_cq_log2(en_cq_log2),
      .dis_set(dis_set), .dis_ctx(dis_ctx), .cfg_err(cfg_err), .cfg_err_ctx(cfg_err_ctx),
      .ctx_enabled(ctx_enabled), .ctx_run(ctx_run),
      .db_sq(db_sq), .db_cq(db_cq), .db_ctx(db_ctx), .db_value(db_value),
      .pio_valid(pio_valid), .pio_ready(pio_ready), .pio_ctx(pio_ctx), .pio_data(pio_data),
      .pio_next_valid(pio_next_valid), .pio_next_ctx(pio_next_ctx), .pio_next_fence(pio_next_fence),
      .sq_log2_all(sq_log2_all), .cq_log2_all(cq_log2_all),
      .sqc_ctx(sqc_ctx), .sqc_base(sqc_base),
      .cqc_ctx(cqc_ctx), .cqc_base(cqc_base), .cqc_msi(cqc_msi), .cqc_vec(cqc_vec),
      .win_idx(win_idx), .win_base(win_base), .win_end(win_end),
      .win_ctrl(win_ctrl), .rt_req(rt_mm_req), .rt_we(rt_mm_we), .rt_idx(rt_mm_idx), .rt_wdata(rt_mm_wdata),
      .rt_done(rt_mm_done), .rt_rdata(rt_mm_rdata),
      .st_ctx(st_ctx), .st_code(st_code), .st_en(st_en), .st_err(st_err),
      .st_ops(st_ops), .st_puts(st_puts), .ci_all(ci_all),
      .err_inc({ci_bad, db_drop || bdb}),
      .inc_tx(inc_tx), .inc_rx(inc_rx), .inc_nak_sent(nak_sent), .inc_nak_rcvd(nak_rcvd),
      .inc_bad({bad_rsp, bad_tgt}), .inc_dma_err({1'b0, inc_dma}),
      .stats(stat_counters),
      .e2e_en(e2e_en), .e2e_retries(e2e_retries), .e2e_timeout(e2e_timeout), .e2e_switch(e2e_sw_csr),
      .inc_e2e({inc_resync, inc_unreach, inc_timeout, dup_resp, dup_req, inc_retx})
  );
  wire unused_rt_in = rt_mm_in;

  // ---- end-to-end reliability ----------------------------------------------------------------
  wire e2e_push_gen, e2e_push_rtx, e2e_chk_pend, e2e_push_rsy, e2e_push_known;
  wire [7:0] e2e_push_tag, e2e_chk_tag, e2e_la_tag;
  wire [11:0] e2e_push_dst;
  wire [63:0] e2e_push_laddr;
  wire rt_valid, rt_ready, rt_dma, rt_done;
  wire [7:0] rt_tag;
  wire [63:0] rt_h0, rt_h1;
  wire [3:0] rt_nbeats;
  wire [255:0] rt_beat;
  wire e2e_rd_pend, e2e_rd_gen, e2e_rd_rsy, ans, ans_done, gu_valid, gu_ready, wake, wake_rsy;
  wire [7:0] ans_tag, gu_tag, gu_status, wake_tag;
  assign stat_e2e_inc = {inc_unreach, inc_timeout, dup_resp, dup_req, inc_retx};
  wire tx_unreach;
  assign stat_unreachable = tx_unreach || inc_unreach;
  wire q_le_valid, q_le_ready, rsp_le_ready;
  wire [7:0] q_le_tag;
  wire rsp_tag_free;
  wire [7:0] rsp_free_tag;
  wire unused_rsp_free = &{1'b0, rsp_tag_free, rsp_free_tag};
  // local errors for the response side: failed payload reads first, then give-ups
  assign le_valid = q_le_valid || gu_valid;
  assign le_tag = q_le_valid ? q_le_tag : gu_tag;
  wire [7:0] le_status = q_le_valid ? `KOLO_ST_LOCAL_DMA : gu_status;
  assign q_le_ready = rsp_le_ready && q_le_valid;
  assign gu_ready = rsp_le_ready && !q_le_valid;

  kolo_ni_e2e #(
      .NODES(E2E_NODES)
  ) u_e2e (
      .clk(clk), .rst(rst), .dim_m1(svc_dim_m1),
      .cfg_en(e2e_en), .cfg_timeout(e2e_timeout), .cfg_retries(e2e_retries),
      .cfg_switch(e2e_sw_csr || rt_chg || (svc_en && SVC_ROUTE != 0 && svc_rt_switch)),
      .push(push), .push_rtx(e2e_push_rtx), .push_tag(e2e_push_tag), .push_dst(e2e_push_dst),
      .push_h0(push_h0), .push_h1(push_h1), .push_nbeats(push_nbeats), .push_dma(push_dma),
      .push_beat(push_beat), .push_laddr(e2e_push_laddr), .push_gen(e2e_push_gen),
      .push_rsy(e2e_push_rsy), .push_known(e2e_push_known), .la_tag(e2e_la_tag),
      .chk_tag(e2e_chk_tag), .chk_pend(e2e_chk_pend),
      .rt_valid(rt_valid), .rt_ready(rt_ready), .rt_tag(rt_tag), .rt_h0(rt_h0), .rt_h1(rt_h1),
      .rt_nbeats(rt_nbeats), .rt_dma(rt_dma), .rt_beat(rt_beat), .rt_done(rt_done),
      .lk_req(lk_req[2]), .lk_id(lk_id[24+:12]), .lk_gnt(lk_gnt[2]), .lk_rvalid(lk_rvalid[2]),
      .lk_entry(lk_entry), .lk_ok(lk_ok),
      .rd_tag(rd_tag), .rd_pend(e2e_rd_pend), .rd_gen(e2e_rd_gen), .rd_rsy(e2e_rd_rsy),
      .ans(ans), .ans_tag(ans_tag), .ans_done(ans_done),
      .gu_valid(gu_valid), .gu_ready(gu_ready), .gu_tag(gu_tag), .gu_status(gu_status),
      .free(tag_free), .free_tag(free_tag), .wake(wake), .wake_tag(wake_tag), .wake_rsy(wake_rsy),
      .inc_retx(inc_retx), .inc_timeout(inc_timeout), .inc_unreach(inc_unreach),
      .inc_resync(inc_resync)
  );

  kolo_ni_route u_route (
      .clk(clk), .rst(rst), .cfg_dim_m1(svc_dim_m1),
      .lk_req(lk_req), .lk_id(lk_id), .lk_gnt(lk_gnt), .lk_rvalid(lk_rvalid),
      .lk_entry(lk_entry), .lk_ok(lk_ok),
      .mm_req(rt_mm_req), .mm_we(rt_mm_we), .mm_idx(rt_mm_idx), .mm_wdata(rt_mm_wdata),
      .mm_done(rt_mm_done), .mm_rdata(rt_mm_rdata), .mm_in(rt_mm_in), .mm_chg(rt_chg),
      .ext_en(svc_en && SVC_ROUTE != 0), .ext_lk_valid(svc_rt_lk_valid), .ext_lk_id(svc_rt_lk_id),
      .ext_lk_entry(svc_rt_lk_entry)
  );

  kolo_ni_ctx u_ctx (
      .clk(clk), .rst(rst),
      .en_set(en_set), .en_ctx(en_ctx), .en_cq_log2(en_cq_log2),
      .dis_set(dis_set), .dis_ctx(dis_ctx),
      .cfg_err(cfg_err), .cfg_err_ctx(cfg_err_ctx),
      .db_err(bdb), .db_err_ctx(bdb_ctx), .db_err_code(`KOLO_ST_BAD_DOORBELL),
      .tx_err(tx_stop), .tx_err_ctx(tx_stop_ctx),
      .take(take), .take_ctx(take_ctx), .ops_inc(ops_inc), .ops_inc_ctx(ops_inc_ctx),
      .put_inc(put_inc), .put_inc_ctx(put_inc_ctx), .put_dec(put_dec), .put_dec_ctx(put_dec_ctx),
      .retire(retire), .retire_ctx(retire_ctx), .retire_written(retire_written),
      .retire_tagged(retire_tagged),
      .ci_wr(db_cq), .ci_ctx(db_ctx), .ci_value(db_value), .ci_bad(ci_bad),
      .enabled(ctx_enabled), .run(ctx_run), .room(ctx_room), .ops_idle(ctx_ops_idle),
      .rd_ctx(st_ctx), .rd_status(st_code), .rd_en(st_en), .rd_err(st_err),
      .rd_ops(st_ops), .rd_puts(st_puts),
      .cq_ctx(cqc_ctx), .cq_pi_out(cq_pi)
  );

  // ---- send side ------------------------------------------------------------------------
  kolo_ni_sq #(
      .DQ(DQ), .BATCH(BATCH)
  ) u_sq (
      .clk(clk), .rst(rst),
      .sq_log2_all(sq_log2_all), .cfg_ctx(sqc_ctx), .cfg_base(sqc_base), .run(ctx_run),
      .en_set(en_set), .en_ctx(en_ctx),
      .db_valid(db_sq), .db_ctx(db_ctx), .db_value(db_value),
      .bdb(bdb), .bdb_ctx(bdb_ctx), .db_drop(db_drop), .bdb_pend(bdb_pend),
      .bdb_clr(bdb_clr), .bdb_clr_ctx(bdb_clr_ctx),
      .rq_valid(rq_valid[0]), .rq_ready(rq_ready[0]), .rq_addr(rq_addr[0+:64]),
      .rq_len(rq_len[0+:13]), .rq_id(rq_id[0+:8]),
      .rd_valid(dma_rd_valid && dma_rd_id[7:6] == 2'b01), .rd_data(dma_rd_data),
      .rd_rec(dma_rd_id[5:0]), .rd_last(dma_rd_last), .rd_err(dma_rd_err),
      /* verilator lint_off PINCONNECTEMPTY */  // DMA errors are counted here, from the bus
      .dma_err(),
      /* verilator lint_on PINCONNECTEMPTY */
      .head_valid(head_valid), .eng_ctx(dq_ctx), .eng_desc(dq_desc), .eng_err(dq_err),
      .eng_take(dq_take), .eng_take_ctx(dq_take_ctx), .ci_all(ci_all)
  );

  kolo_ni_tx #(
      .HQ_AW(HQ_AW), .RING_AW(RING_AW)
  ) u_tx (
      .clk(clk), .rst(rst), .node_id(svc_node_id),
      .head_valid(head_valid), .dq_ctx(dq_ctx), .dq_desc(dq_desc), .dq_err(dq_err),
      .dq_take(dq_take), .dq_take_ctx(dq_take_ctx), .ci_all(ci_all), .sq_log2_all(sq_log2_all),
      .bdb_pend(bdb_pend), .bdb_clr(bdb_clr), .bdb_clr_ctx(bdb_clr_ctx),
      .run(ctx_run), .room(ctx_room), .ops_idle(ctx_ops_idle),
      .take(take), .take_ctx(take_ctx), .stop(tx_stop), .stop_ctx(tx_stop_ctx),
      .ops_inc(ops_inc), .ops_inc_ctx(ops_inc_ctx),
      .put_inc(put_inc), .put_inc_ctx(put_inc_ctx),
      .pio_valid(pio_valid), .pio_ready(pio_ready), .pio_ctx(pio_ctx), .pio_data(pio_data),
      .pio_next_valid(pio_next_valid), .pio_next_ctx(pio_next_ctx), .pio_next_fence(pio_next_fence),
      .rt_req(lk_req[1]), .rt_id(lk_id[12+:12]), .rt_gnt(lk_gnt[1]), .rt_rvalid(lk_rvalid[1]),
      .rt_entry(lk_entry), .rt_ok(lk_ok),
      .tag_valid(tag_valid), .tag(tag), .tag_alloc(tag_alloc),
      .st_we(st_we), .st_wtag(st_wtag), .st_wdata(st_wdata),
      .ev_valid(ev_valid[0]), .ev_ready(ev_ready[0]), .ev_data(ev_data[0+:102]),
      .rq_valid(rq_valid[1]), .rq_ready(rq_ready[1]), .rq_addr(rq_addr[64+:64]),
      .rq_len(rq_len[13+:13]), .rq_id(rq_id[8+:8]),
      .hq_room(hq_room), .ring_free(ring_free), .push_idx(push_idx), .push_beat_ok(push_beat_ok),
      .push(push), .push_h0(push_h0), .push_h1(push_h1), .push_nbeats(push_nbeats),
      .push_dma(push_dma), .push_cls(push_cls), .push_beat(push_beat),
      .e2e_en(e2e_en), .push_gen(e2e_push_gen), .push_rtx(e2e_push_rtx), .push_tag(e2e_push_tag),
      .push_dst(e2e_push_dst), .push_laddr(e2e_push_laddr),
      .push_rsy(e2e_push_rsy), .push_known(e2e_push_known), .la_tag(e2e_la_tag), .ans(ans), .ans_tag(ans_tag), .ans_done(ans_done),
      .rx_valid(rt_valid), .rx_ready(rt_ready), .rx_tag(rt_tag), .rx_h0(rt_h0), .rx_h1(rt_h1),
      .rx_nbeats(rt_nbeats), .rx_dma(rt_dma), .rx_beat(rt_beat),
      .chk_tag(e2e_chk_tag), .chk_pend(e2e_chk_pend), .rx_done(rt_done), .wake(wake), .wake_tag(wake_tag),
      .wake_rsy(wake_rsy),
      .stat_unreachable(tx_unreach), .dbg(dbg_tx)
  );

  kolo_ni_txq #(
      .HQ_AW(HQ_AW), .RING_AW(RING_AW)
  ) u_txq (
      .clk(clk), .rst(rst),
      .hq_room(hq_room), .ring_free(ring_free), .push_idx(push_idx), .push_beat_ok(push_beat_ok),
      .push(push), .push_h0(push_h0), .push_h1(push_h1), .push_nbeats(push_nbeats),
      .push_dma(push_dma), .push_cls(push_cls), .push_beat(push_beat),
      .dv(dma_rd_valid && dma_rd_id[7:6] == 2'b00), .dd(dma_rd_data), .did(dma_rd_id[HQ_AW-1:0]),
      .dlast(dma_rd_last), .derr(dma_rd_err),
      .s_valid(src_valid[0]), .s_flit(src_flit[0+:66]), .s_cls(src_cls[0]), .s_ready(src_ready[0]),
      .le_valid(q_le_valid), .le_tag(q_le_tag), .le_ready(q_le_ready), .dbg(dbg_txq)
  );

  kolo_ni_tags #(
      .ST_W(204), .DY_W(95)
  ) u_tags (
      .clk(clk), .rst(rst),
      .alloc_valid(tag_valid), .alloc_tag(tag), .alloc(tag_alloc),
      .free(tag_free), .free_tag(free_tag),
      .st_we(st_we), .st_wtag(st_wtag), .st_wdata(st_wdata),
      .rd_tag(rd_tag), .st_rdata(st_rdata), .dy_rdata(dy_rdata), .rd_busy(tag_busy),
      .dy_we(dy_we), .dy_wtag(dy_wtag), .dy_wdata(dy_wdata),
      .n_free(tags_free)
  );

  // ---- receive side ---------------------------------------------------------------------
  kolo_ni_ej #(
      .DEPTH(EJ_DEPTH)
  ) u_ej (
      .clk(clk), .rst(rst),
      .ej_valid(ej_valid), .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid), .ej_credit_vc(ej_credit_vc),
      .pk_valid(pk_valid), .pk_flit(pk_flit), .pk_ok(pk_ok), .pk_ready(pk_ready),
      .stat_pkt(ej_heads)
  );

  // MGMT packets of the service block share vnet 1 with the responses
  // (u_mgmt below: tg_* from the target, rp_* from the responder)
  wire tg_valid, tg_cls, tg_ready, rp_valid, rp_ok, rp_ready;
  wire [65:0] tg_flit, rp_flit;

  kolo_ni_tgt #(
      .GSLOTS(GSLOTS), .NODES(E2E_NODES), .ATOMICS(ATOMICS)
  ) u_tgt (
      .clk(clk), .rst(rst), .node_id(svc_node_id), .dim_m1(svc_dim_m1), .cfg_en(e2e_en),
      .stat_dup(dup_req),
      .pk_valid(pk_valid[0]), .pk_flit(pk_flit[0+:66]), .pk_ok(pk_ok[0]), .pk_ready(pk_ready[0]),
      .win_idx(win_idx), .win_base(win_base), .win_end(win_end), .win_ctrl(win_ctrl),
      .rt_req(lk_req[0]), .rt_id(lk_id[0+:12]), .rt_gnt(lk_gnt[0]), .rt_rvalid(lk_rvalid[0]),
      .rt_entry(lk_entry), .rt_ok(lk_ok),
      .wr_valid(wq_valid[0]), .wr_ready(wq_ready[0]), .wr_addr(wq_addr[0+:64]),
      .wr_len(wq_len[0+:13]), .wr_data(wq_data[0+:256]), .wr_last(wq_last[0]),
      .rq_valid(rq_valid[2]), .rq_ready(rq_ready[2]), .rq_addr(rq_addr[128+:64]),
      .rq_len(rq_len[26+:13]), .rq_id(rq_id[16+:8]),
      .rd_valid(dma_rd_valid && dma_rd_id[7]), .rd_data(dma_rd_data), .rd_id(dma_rd_id),
      .rd_last(dma_rd_last), .rd_err(dma_rd_err),
      .s_valid(tg_valid), .s_flit(tg_flit), .s_cls(tg_cls), .s_ready(tg_ready),
      .stat_bad(bad_tgt), .stat_nak(nak_sent), .dbg(dbg_tgt)
  );

  kolo_ni_mgmt u_mgmt (
      .clk(clk), .rst(rst), .en(svc_en),
      .pk_valid(pk_valid[1]), .pk_flit(pk_flit[66+:66]), .pk_ok(pk_ok[1]), .pk_ready(pk_ready[1]),
      .rsp_valid(rp_valid), .rsp_flit(rp_flit), .rsp_ok(rp_ok), .rsp_ready(rp_ready),
      .mgmt_rx_valid(mgmt_rx_valid), .mgmt_rx_flit(mgmt_rx_flit), .mgmt_rx_ready(mgmt_rx_ready),
      .tgt_valid(tg_valid), .tgt_flit(tg_flit), .tgt_cls(tg_cls), .tgt_ready(tg_ready),
      .mgmt_tx_valid(mgmt_tx_valid), .mgmt_tx_flit(mgmt_tx_flit), .mgmt_tx_ready(mgmt_tx_ready),
      .inj_valid(src_valid[1]), .inj_flit(src_flit[66+:66]), .inj_cls(src_cls[1]), .inj_ready(src_ready[1]),
      .stat_rsp_head(rsp_head), .stat_mgmt_tx(mgmt_tx_head)
  );

  kolo_ni_rsp u_rsp (
      .clk(clk), .rst(rst), .cfg_en(e2e_en),
      .pk_valid(rp_valid), .pk_flit(rp_flit), .pk_ok(rp_ok), .pk_ready(rp_ready),
      .le_valid(le_valid), .le_tag(le_tag), .le_status(le_status), .le_ready(rsp_le_ready),
      .e2e_pend(e2e_rd_pend), .e2e_gen(e2e_rd_gen), .e2e_rsy(e2e_rd_rsy), .ans(ans), .ans_tag(ans_tag), .ans_done(ans_done),
      .stat_dup(dup_resp),
      .rd_tag(rd_tag), .st(st_rdata), .dy(dy_rdata), .busy(tag_busy),
      .dy_we(dy_we), .dy_wtag(dy_wtag), .dy_wdata(dy_wdata),
      .tag_free(rsp_tag_free), .free_tag(rsp_free_tag),
      .ev_valid(ev_valid[1]), .ev_ready(ev_ready[1]), .ev_data(ev_data[102+:102]),
      .put_dec(put_dec), .put_dec_ctx(put_dec_ctx),
      .wr_valid(wq_valid[1]), .wr_ready(wq_ready[1]), .wr_addr(wq_addr[64+:64]),
      .wr_len(wq_len[13+:13]), .wr_data(wq_data[256+:256]), .wr_last(wq_last[1]),
      .stat_bad(bad_rsp), .stat_nak(nak_rcvd), .dbg(dbg_rsp)
  );

  kolo_ni_cq u_cq (
      .clk(clk), .rst(rst),
      .ev_valid(ev_valid), .ev_ready(ev_ready), .ev_data(ev_data),
      .cfg_ctx(cqc_ctx), .cfg_base(cqc_base), .cfg_log2(cq_log2_all[cqc_ctx*4+:4]),
      .cfg_msi(cqc_msi), .cfg_vec(cqc_vec), .cq_pi(cq_pi), .enabled(ctx_enabled),
      .retire(retire), .retire_ctx(retire_ctx), .retire_written(retire_written),
      .retire_tagged(retire_tagged),
      .wr_valid(wq_valid[2]), .wr_ready(wq_ready[2]), .wr_addr(wq_addr[128+:64]),
      .wr_len(wq_len[26+:13]), .wr_data(wq_data[512+:256]), .wr_last(wq_last[2]),
      .msi_valid(msi_valid), .msi_ready(msi_ready), .msi_vector(msi_vector), .dbg(dbg_cq)
  );

  kolo_ni_inj #(
      .CREDITS(INJ_CREDITS)
  ) u_inj (
      .clk(clk), .rst(rst),
      .src_valid(src_valid), .src_flit(src_flit), .src_cls(src_cls), .src_ready(src_ready),
      .inj_valid(inj_valid), .inj_flit(inj_flit),
      .inj_credit_valid(inj_credit_valid), .inj_credit_vc(inj_credit_vc),
      .stat_pkt(inj_pkt)
  );

  // ---- DMA read requests: round robin, one per cycle --------------------------------------
  // Each source's request first enters a one-entry register (pipeline stage):
  // the arbiter and the port see flip-flops, and a source's ready no longer
  // depends on the other sources' request logic. A source can hand over one
  // request every two cycles (the endpoint takes one every two cycles).
  reg [2:0] rs_v;
  reg [3*64-1:0] rs_addr;
  reg [3*13-1:0] rs_len;
  reg [3*8-1:0] rs_id;
  wire [2:0] rq_grant;
  kolo_arb_rr #(
      .N(3)
  ) u_rq_arb (
      .clk(clk), .rst(rst), .req(rs_v), .advance(dma_rd_req_ready), .grant(rq_grant)
  );
  assign rq_ready = ~rs_v;
  wire [2:0] rs_go = rq_grant & {3{dma_rd_req_ready}};
  integer ri;
  always @(posedge clk) begin
    for (ri = 0; ri < 3; ri = ri + 1) begin
      if (rst) rs_v[ri] <= 1'b0;
      else if (rq_valid[ri] && !rs_v[ri]) rs_v[ri] <= 1'b1;
      else if (rs_go[ri]) rs_v[ri] <= 1'b0;
      if (!rs_v[ri]) begin
        rs_addr[ri*64+:64] <= rq_addr[ri*64+:64];
        rs_len[ri*13+:13] <= rq_len[ri*13+:13];
        rs_id[ri*8+:8] <= rq_id[ri*8+:8];
      end
    end
  end
  assign dma_rd_req_valid = rq_grant != 3'd0;
  assign dma_rd_req_addr = rq_grant[0] ? rs_addr[0+:64] : rq_grant[1] ? rs_addr[64+:64] : rs_addr[128+:64];
  assign dma_rd_req_len = rq_grant[0] ? rs_len[0+:13] : rq_grant[1] ? rs_len[13+:13] : rs_len[26+:13];
  assign dma_rd_req_id = rq_grant[0] ? rs_id[0+:8] : rq_grant[1] ? rs_id[8+:8] : rs_id[16+:8];
  assign dma_rd_ready = 1'b1;

  // ---- DMA writes: round robin per request ------------------------------------------------
  reg wq_lock;
  reg [2:0] wq_own;
  wire [2:0] wq_grant;
  kolo_arb_rr #(
      .N(3)
  ) u_wq_arb (
      .clk(clk), .rst(rst), .req(wq_lock ? 3'd0 : wq_valid), .advance(1'b1), .grant(wq_grant)
  );
  wire [2:0] wq_sel = wq_lock ? wq_own : wq_grant;
  assign dma_wr_valid = |(wq_sel & wq_valid);
  assign dma_wr_addr = wq_sel[0] ? wq_addr[0+:64] : wq_sel[1] ? wq_addr[64+:64] : wq_addr[128+:64];
  assign dma_wr_len = wq_sel[0] ? wq_len[0+:13] : wq_sel[1] ? wq_len[13+:13] : wq_len[26+:13];
  assign dma_wr_data = wq_sel[0] ? wq_data[0+:256] : wq_sel[1] ? wq_data[256+:256] : wq_data[512+:256];
  assign dma_wr_last = |(wq_sel & wq_last);
  assign wq_ready = wq_sel & {3{dma_wr_ready}};
  always @(posedge clk) begin
    if (rst) begin
      wq_lock <= 1'b0;
      wq_own <= 3'd0;
    end else if (dma_wr_valid) begin
      // held from the first cycle a request is offered, not only once a beat
      // is taken: the endpoint latches _addr/_len before it takes the first
      // beat, so the offer must not switch to another source meanwhile
      wq_lock <= !(dma_wr_ready && dma_wr_last);
      wq_own <= wq_sel;
    end
  end
endmodule
`default_nettype wire
