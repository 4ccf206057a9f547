`default_nettype none
// kolo_ni_tx - the NI's send engine: descriptors and PIO writes in,
// request packets out (into kolo_ni_txq).
//
// Work slots 0..15 are the contexts' send queues, slot 16 the PIO holding
// register. A round-robin scheduler picks one slot at a time:
//  - a slot with an operation in progress (a PUT from host memory or a GET,
//    cut into packets at 256-byte boundaries of the remote address) emits
//    its next packet, so that long operations of one context do not hold
//    the others back (round robin per packet);
//  - otherwise the slot's next item: a descriptor at the head of its queue
//    (FENCE: only when the context has nothing outstanding), a PIO write, or
//    a pending doorbell-error completion. Each needs a reserved CQ entry
//    (room[c]).
// An item is decoded and checked (docs/ni.md section 3: bad op, bad length,
// destination outside the torus or unreachable, misaligned atomic): refused
// items, NOPs and failed descriptor fetches become completion events (ev_*)
// at once. Accepted operations take a tag (waiting for one if the pool is
// empty), write the tag table's static entry, count in OUTSTANDING, and are
// emitted: atomics as one packet, INLINE and PIO PUTs (<= 32 bytes) as one
// or two packets from the small payload register (shifted between the two),
// PUTs and GETs from their progress state, one packet per turn. A PUT
// packet's payload is a DMA read (rq_*, id {2'b00, queue entry}) of exactly
// its bytes. The header gets the route state of the destination's routing
// table entry (kolo_ni_route; bit 31 clear: KOLO_ST_BAD_DST).
// Handshakes: valid/ready on ev_*, rq_*, pio_*; combinational single-cycle
// pulses for the accounting outputs and table writes (so that the scheduler
// sees their effect two cycles later); push into kolo_ni_txq only when it
// has room (hq_room, ring_free, push_beat_ok).
// Timing: a one-packet operation takes three cycles (load: descriptor and
// route lookup; finish: checks, tag; packet), a further packet of a PUT/GET
// two (load, packet); the next slot is chosen during the packet cycle.
// Logic depth: the item's op and length checks are registered as E_LOAD
// takes it, a packet's size (n_pl, nm1, pl_last) a cycle before E_PKT from
// the values c_raddr/c_rem will have there: <= 6 LUT levels register to
// register (Yosys synth_xilinx, docs/ni.md).
// End-to-end reliability (e2e_en, kolo_ni_e2e): every packet of an operation
// uses the operation's tag, so an operation has one packet in flight: after
// each packet but the last, its slot waits (sww) until kolo_ni_e2e wakes
// the tag (its response came, plus a quarantine if it was sent again). The
// second packet of a two-packet INLINE/PIO PUT is parked meanwhile (its
// payload in spm, the slot marked smr). Header flit 0 bit 63 carries
// push_gen. Retransmissions (rx_*, valid/ready) are taken in E_IDLE before
// any slot and pushed again as recorded (E_RTX; a PUT from host memory reads
// its payload again), unless the packet has been answered meanwhile
// (chk_pend low).
// Resynchronisation (docs/ni.md 10.1): before an operation's first packet,
// if kolo_ni_e2e says its (destination, tag) is not known (push_known low:
// e2e on and the NI's tables as a bitstream load leaves them), E_PKT pushes
// a RESYNC packet instead (op KOLO_OP_RESYNC, one payload flit 0, the tag
// and the next generation; push_rsy) and parks the operation on its tag:
// its state (the c_* registers, the small payload) in pk_mem (block RAM,
// one entry per tag), and the engine goes on with other work. The tag's
// wake for its RESYNC (wake_rsy: the ACK came, after a quarantine if it was
// sent again) queues the tag in the resume FIFO; E_IDLE takes a queued tag
// before the slots (after retransmissions), E_RLD reloads the operation,
// E_RL2 sizes its packet (n_pl) and E_PKT sends its first packet as usual.
// A one-packet operation without ORDERED frees its slot at the RESYNC (the
// context's next items go meanwhile); a longer one (its further packets
// need the slot's progress state) or an ORDERED one (its packets stay in
// the context's order) blocks its slot (sblk; stag names the tag) until its
// first packet goes. A RESYNC given up (ans_done on the tag: kolo_ni_rsp
// completed the operation with the error) is never woken: its pk_mem entry
// is dead, and a slot it blocked is released (sblk, act cleared).
// Logic depth: push_known is a register
// (kolo_ni_e2e reads its table a cycle ahead, for push_dst and la_tag: the
// tag the operation will have in E_PKT); so push_dst (c_dst) is set as
// E_LOAD takes the item, and E_FIN's la_tag is the tag pool's offer (the
// only way to E_PKT with c_first set: a resumed operation's tag is known).
module kolo_ni_tx #(
    parameter HQ_AW   = 6,
    parameter RING_AW = 9
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   node_id,
    // send queues (kolo_ni_sq)
    input  wire [15:0]   head_valid,
    output wire [3:0]    dq_ctx,
    input  wire [255:0]  dq_desc,
    input  wire          dq_err,
    output wire          dq_take,
    output wire [3:0]    dq_take_ctx,
    input  wire [16*16-1:0] ci_all,
    input  wire [16*4-1:0] sq_log2_all,
    input  wire [15:0]   bdb_pend,
    output wire          bdb_clr,
    output wire [3:0]    bdb_clr_ctx,
    // context state (kolo_ni_ctx)
    input  wire [15:0]   run,
    input  wire [15:0]   room,
    input  wire [15:0]   ops_idle,
    output wire          take,
    output wire [3:0]    take_ctx,
    output wire          stop,           // descriptor fetch failed: stop the context (LOCAL_DMA)
    output wire [3:0]    stop_ctx,
    output wire          ops_inc,
    output wire [3:0]    ops_inc_ctx,
    output wire          put_inc,
    output wire [3:0]    put_inc_ctx,
    // PIO (kolo_ni_csr)
    input  wire          pio_valid,
    output wire          pio_ready,
    input  wire [3:0]    pio_ctx,
    input  wire [511:0]  pio_data,
    input  wire          pio_next_valid,  // hint: the PIO write to come (kolo_ni_csr)
    input  wire [3:0]    pio_next_ctx,
    input  wire          pio_next_fence,
    // routing table (kolo_ni_route lookup port 1)
    output wire          rt_req,
    output wire [11:0]   rt_id,
    input  wire          rt_gnt,
    input  wire          rt_rvalid,
    input  wire [31:0]   rt_entry,
    input  wire          rt_ok,
    // tags (kolo_ni_tags)
    input  wire          tag_valid,
    input  wire [7:0]    tag,
    output wire          tag_alloc,
    output wire          st_we,
    output wire [7:0]    st_wtag,
    output wire [203:0]  st_wdata,
    // completion events (kolo_ni_cq)
    output reg           ev_valid,
    input  wire          ev_ready,
    output reg  [101:0]  ev_data,
    // payload DMA reads
    output wire          rq_valid,
    input  wire          rq_ready,
    output wire [63:0]   rq_addr,
    output wire [12:0]   rq_len,
    output wire [7:0]    rq_id,
    // packet queue (kolo_ni_txq)
    input  wire          hq_room,
    input  wire [RING_AW:0] ring_free,
    input  wire [HQ_AW-1:0] push_idx,
    input  wire          push_beat_ok,
    output wire          push,
    output wire [63:0]   push_h0,
    output wire [63:0]   push_h1,
    output wire [3:0]    push_nbeats,
    output wire          push_dma,
    output wire          push_cls,
    output wire [255:0]  push_beat,
    // end-to-end reliability (kolo_ni_e2e)
    input  wire          e2e_en,
    input  wire          push_gen,
    output wire          push_rtx,
    output wire          push_rsy,       // the push is a RESYNC
    input  wire          push_known,     // (push_dst, push_tag) needs no RESYNC (registered: la_tag)
    input  wire          ans,            // kolo_ni_rsp counted a packet of ans_tag (done: the operation ended)
    input  wire [7:0]    ans_tag,
    input  wire          ans_done,
    output wire [7:0]    push_tag,
    output wire [11:0]   push_dst,
    output wire [7:0]    la_tag,         // the tag of the next cycle's E_PKT (for push_known)
    output wire [63:0]   push_laddr,
    input  wire          rx_valid,
    output wire          rx_ready,
    input  wire [7:0]    rx_tag,
    input  wire [63:0]   rx_h0,
    input  wire [63:0]   rx_h1,
    input  wire [3:0]    rx_nbeats,
    input  wire          rx_dma,
    input  wire [255:0]  rx_beat,
    output wire [7:0]    chk_tag,
    input  wire          chk_pend,
    output wire          rx_done,        // the retransmission taken went, or was dropped
    input  wire          wake,
    input  wire [7:0]    wake_tag,
    input  wire          wake_rsy,       // the wake is a RESYNC's: resume the operation parked on the tag
    output wire          stat_unreachable,  // an operation completed with BAD_DST: no valid route
    output wire [15:0]   dbg
);
  `include "kolo_defs.vh"
  `include "kolo_ni_regs.vh"

  // descriptor ops (rtl/regs/kolo_ni_regs.toml)
  localparam [7:0] D_NOP = `KOLO_D_NOP, D_PUT = `KOLO_D_PUT, D_GET = `KOLO_D_GET, D_CSWAP = `KOLO_D_CSWAP;
  // status codes
  localparam [7:0] ST_OK = `KOLO_ST_OK, ST_BAD_OP = `KOLO_ST_BAD_OP, ST_BAD_LEN = `KOLO_ST_BAD_LEN,
                   ST_BAD_DST = `KOLO_ST_BAD_DST, ST_BAD_ALIGN = `KOLO_ST_BAD_ALIGN,
                   ST_LOCAL_DMA = `KOLO_ST_LOCAL_DMA, ST_BAD_DOORBELL = `KOLO_ST_BAD_DOORBELL;
  localparam PIO = 16;

  // ---- state ----------------------------------------------------------------------------
  localparam E_IDLE = 3'd0, E_LOAD = 3'd1, E_FIN = 3'd2, E_PKT = 3'd3, E_SHIFT = 3'd4, E_RTX = 3'd5,
             E_RLD = 3'd6, E_RL2 = 3'd7;
  reg [2:0] es;
  reg [16:0] act;      // slot has an operation in progress (PUT from memory, GET)
  reg [16:0] sww;      // e2e: the slot's packet in flight must be answered first
  reg [16:0] smr;      // e2e: the slot holds the rest of a small PUT (payload in spm)
  reg [7:0] stag[0:16];
  reg [255:0] spm[0:31];
  reg c_park, c_smr;
  // e2e: the operation's first packet has not gone (a RESYNC may be due)
  reg c_first;
  // c_act: the operation is a slot's PUT/GET in progress (act[c_slot] for a slot's item; a
  // register: a resumed operation may have left its slot); c_blk: a resumed operation that
  // blocks its slot (sblk) until its first packet goes
  reg c_act, c_blk;
  reg [16:0] sblk;     // e2e: the slot's operation is parked on its tag (stag) for a RESYNC
  // a retransmission being pushed: rx_* hold still until rx_done (kolo_ni_e2e)
  wire [63:0] x_h0 = rx_h0;
  wire [255:0] x_beat = rx_beat;
  reg [15:0] fwait;    // head descriptor waits for FENCE
  reg [4:0] c_slot;
  reg [3:0] c_ctx;
  reg [15:0] c_index;
  reg c_pio;
  reg [191:0] c_d;     // the descriptor, bytes 0..23 (24..31 are only payload: in sp)
  reg [255:0] sp;      // small payload (INLINE, PIO)
  reg [7:0] c_tag;
  reg [22:0] c_rs;
  reg [47:0] c_raddr;
  reg [63:0] c_laddr;
  reg [30:0] c_rem;
  reg [5:0] c_shift;   // bytes still to shift sp by
  reg rt_wait, rt_got, c_rok;
  // descriptor fields
  wire [7:0] d_op = c_d[7:0];
  wire [7:0] d_flags = c_d[15:8];
  wire [11:0] d_dst = c_d[27:16];
  wire [31:0] d_len = c_d[63:32];
  wire [47:0] d_raddr = c_d[111:64];
  wire [7:0] d_key = c_d[119:112];
  wire [63:0] d_w2 = c_d[191:128];
  wire f_complete = d_flags[0];
  wire f_inline = d_flags[1];             // (a PIO PUT ignores it, see small_put)
  wire f_ordered = d_flags[2];
  wire f_size32 = d_flags[4];
  wire is_put = d_op == D_PUT;
  wire is_get = d_op == D_GET;
  wire is_atomic = d_op >= `KOLO_D_ADD && d_op <= `KOLO_D_OR;
  wire small_put = is_put && (f_inline || c_pio);   // payload in sp (PIO: the chunk's bytes 32..63)
  wire streaming = (is_put && !small_put) || is_get;

  // network op and fetch bit of an atomic
  reg [3:0] a_netop;
  reg a_fetch;
  always @(*) begin
    a_fetch = 1'b1;
    case (d_op)
      `KOLO_D_ADD: begin a_netop = `KOLO_OP_ADD; a_fetch = 1'b0; end
      `KOLO_D_XOR: begin a_netop = `KOLO_OP_XOR; a_fetch = 1'b0; end
      `KOLO_D_FETCH_ADD: a_netop = `KOLO_OP_FETCH_ADD;
      `KOLO_D_FETCH_XOR: a_netop = `KOLO_OP_FETCH_XOR;
      `KOLO_D_SWAP: a_netop = `KOLO_OP_SWAP;
      `KOLO_D_CSWAP: a_netop = `KOLO_OP_CSWAP;
      `KOLO_D_FETCH_AND: a_netop = `KOLO_OP_FETCH_AND;
      `KOLO_D_FETCH_OR: a_netop = `KOLO_OP_FETCH_OR;
      `KOLO_D_AND: begin a_netop = `KOLO_OP_FETCH_AND; a_fetch = 1'b0; end
      default: begin a_netop = `KOLO_OP_FETCH_OR; a_fetch = 1'b0; end  // OR
    endcase
  end

  // ---- checks (docs/ni.md section 3), in the order of the status codes -------------------
  // The op and length checks are done on the item as E_LOAD takes it (k_*: the descriptor
  // or PIO chunk being loaded into c_d) and registered with it (c_chk_op, c_chk_len): the
  // 64-bit end-of-buffer compare does not fit in E_FIN before the state and tag logic.
  reg c_chk_op, c_chk_len;
  // c_slot_pio: c_slot == PIO, registered with c_slot (one LUT level less before the item's
  // fields, the 64-bit end compare in k_chk_len)
  reg c_slot_pio;
  wire k_pio = c_slot_pio;
  wire [191:0] k_d = k_pio ? pio_data[191:0] : dq_desc[191:0];
  wire [7:0] k_op = k_d[7:0];
  wire [7:0] k_flags = k_d[15:8];
  wire [31:0] k_len = k_d[63:32];
  wire k_put = k_op == D_PUT;
  wire k_get = k_op == D_GET;
  wire k_atomic = k_op >= `KOLO_D_ADD && k_op <= `KOLO_D_OR;
  wire k_streaming = (k_put && !(k_flags[1] || k_pio)) || k_get;
  wire k_chk_op = k_op > `KOLO_D_OR || k_d[31:28] != 4'd0 || k_d[127:120] != 8'd0 ||
                  k_flags[7:5] != 3'd0 || (k_flags[1] && !k_put) || (k_flags[4] && !k_atomic);
  wire len_big = k_len > 32'h40000000;
  // the remote range must end within 2^48, a host buffer within 2^64
  wire [48:0] r_end = {1'b0, k_d[111:64]} + {17'd0, k_len};
  wire [64:0] l_end = {1'b0, k_d[191:128]} + {33'd0, k_len};
  wire k_chk_len = ((k_put || k_get) && (k_len == 32'd0 || len_big)) ||
                   (k_put && !k_pio && k_flags[1] && k_len > 32'd16) ||
                   (k_put && k_pio && k_len > 32'd32) ||
                   ((k_put || k_get) && r_end > 49'h1000000000000) ||
                   (k_streaming && l_end > 65'h10000000000000000) ||
                   (!k_put && !k_get && k_len != 32'd0);
  wire chk_op = c_chk_op;
  wire chk_len = c_chk_len;
  wire chk_align = is_atomic && (f_size32 ? d_raddr[1:0] != 2'd0 : d_raddr[2:0] != 3'd0);
  wire [7:0] pre_st = chk_op ? ST_BAD_OP : chk_len ? ST_BAD_LEN : ST_OK;

  // ---- scheduler --------------------------------------------------------------------------
  wire [16:0] want;
  genvar g;
  generate
    for (g = 0; g < 16; g = g + 1) begin : g_want
      assign want[g] = !sblk[g] && (act[g] ? !sww[g] :
                       (room[g] && bdb_pend[g]) ||
                       (run[g] && room[g] && head_valid[g] && (!fwait[g] || ops_idle[g])));
    end
  endgenerate
  wire pio_fence = pio_data[8 + 3];
  // PIO: the FIFO's head, or while it is empty the write on its way (pio_next_*): the
  // slot is then chosen as the write enters the FIFO, and E_LOAD takes it only if it is
  // there (pio_valid; an item the hint announced but the FIFO does not hold, refused or
  // held up in kolo_ni_csr, costs one E_LOAD). Of the two writes of the hint, the older
  // one is announced, so the FIFO's head when E_LOAD takes it is the item whose room and
  // FENCE were checked.
  wire [3:0] w_pctx = pio_valid ? pio_ctx : pio_next_ctx;
  wire w_pfence = pio_valid ? pio_fence : pio_next_fence;
  assign want[PIO] = !sblk[PIO] && (act[PIO] ? !sww[PIO] :
                     ((pio_valid || pio_next_valid) && room[w_pctx] && (!w_pfence || ops_idle[w_pctx])));
  // The scheduler works on want_q, one cycle old (timing); E_LOAD checks
  // that the chosen slot was ready when chosen and otherwise goes back to idle.
  // The next slot is chosen in E_IDLE, and in E_PKT for use as the last
  // packet of the current item goes (a slot streaming a PUT/GET is not
  // chosen again right away: its act bit may be about to clear).
  reg [16:0] want_q;
  always @(posedge clk) want_q <= rst ? 17'd0 : want;
  wire pkt_last;   // E_PKT: the packet goes and the item is done
  // (= act[c_slot] ? ~(1 << c_slot) : all ones, bit by bit: no 17:1 mux in the path)
  reg [16:0] excl;
  integer xi, wi;
  always @(*)
    for (xi = 0; xi < 17; xi = xi + 1) excl[xi] = !(act[xi] && c_slot == xi[4:0]);
  wire [16:0] grant;
  wire grant_used;
  kolo_arb_rr #(
      .N(17)
  ) u_arb (
      .clk(clk),
      .rst(rst),
      .req(es == E_IDLE ? want_q : (es == E_PKT) ? (want_q & excl) : 17'd0),
      .advance(grant_used),
      .grant(grant)
  );
  reg [4:0] grant_slot;
  integer i;
  // (grant is one-hot or zero: an OR of the indices, not a priority encoder; logic depth)
  always @(*) begin
    grant_slot = 5'd0;
    for (i = 0; i < 17; i = i + 1) if (grant[i]) grant_slot = grant_slot | i[4:0];
  end
  // the descriptor buffer is read on the clock edge into E_LOAD: address it
  // with the slot being granted (a grant in E_PKT that is not used changes
  // nothing: E_PKT does not read the buffer)
  assign dq_ctx = (grant != 17'd0) ? grant_slot[3:0] : c_slot[3:0];

  // ---- progress state of PUT/GET operations, per slot -------------------------------------
  // {ctx, rem, laddr, raddr, key, rs, dst, ordered, tag, get}
  localparam AW = 4 + 31 + 64 + 48 + 8 + 23 + 12 + 1 + 8 + 1;
  reg [AW-1:0] as_mem[0:31];
  wire [AW-1:0] as_rd = as_mem[c_slot];
  reg c_get;      // streaming op is a GET
  reg c_ordered;
  reg [11:0] c_dst;
  reg [7:0] c_key;

  // ---- packet building ------------------------------------------------------------------------
  // bytes of a PUT/GET packet: min(room_b, c_rem), room_b = 256 - raddr[7:0] (<= 256: a
  // short compare), registered (n_pl, nm1 = n_pl - 1, pl_last: the packet ends the
  // operation) one cycle ahead, from the values c_raddr and c_rem will have in E_PKT:
  // the descriptor's in E_FIN, the slot's progress state in E_LOAD, c_raddr/c_rem
  // otherwise (E_PKT itself, E_SHIFT: they do not change until the packet goes). Every
  // way into E_PKT passes through one of these states, which sets them a cycle before.
  reg [8:0] n_pl, nm1;
  reg pl_last;
  reg [7:0] nx_raddr;          // (its low byte: the room up to the next 256-byte boundary)
  reg [30:0] nx_rem;
  wire [30:0] as_rem = as_rd[AW-5-:31];
  wire [7:0] as_raddr = as_rd[AW-140-:8];
  always @(*) begin
    if (es == E_FIN) begin
      nx_raddr = d_raddr[7:0];
      nx_rem = d_len[30:0];
    end else if (es == E_LOAD) begin
      nx_raddr = as_raddr;
      nx_rem = as_rem;
    end else begin
      nx_raddr = c_raddr[7:0];
      nx_rem = c_rem;
    end
  end
  wire [8:0] nx_room = 9'd256 - {1'b0, nx_raddr[7:0]};
  wire nx_short = nx_rem[30:9] == 22'd0 && nx_rem[8:0] <= nx_room;   // c_rem fits: last packet
  wire [8:0] nx_n = nx_short ? nx_rem[8:0] : nx_room;
  always @(posedge clk) begin
    n_pl <= nx_n;
    nm1 <= nx_n - 9'd1;
    pl_last <= nx_short;
  end
  reg streaming_put;  // c_* describes a PUT from host memory
  wire p_atomic = !c_get && !streaming_put && is_atomic && !c_act;
  wire [5:0] pl_flits = p_atomic ? (d_op == D_CSWAP ? 6'd2 : 6'd1) :
                        c_get ? 6'd1 : nm1[8:3] + 6'd1;
  wire [3:0] pl_beats = (p_atomic || c_get) ? 4'd1 : {1'b0, nm1[7:5]} + 4'd1;
  wire [3:0] p_netop = p_atomic ? a_netop : c_get ? `KOLO_OP_GET_REQ : `KOLO_OP_PUT;
  wire [4:0] p_rsv = p_atomic ? {1'b0, a_fetch, 1'b0, f_size32 ? 2'd2 : 2'd3} :
                     c_get ? 5'd0 : {2'b00, nm1[2:0]};
  wire in_rtx = es == E_RTX;
  // a RESYNC before the operation's first packet (push_known: from push_dst, push_tag)
  wire rsy_now = es == E_PKT && c_first && !push_known;
  assign push_h0 = in_rtx ? x_h0 :
                   rsy_now ? {push_gen, 4'd0, c_rs, 1'b0, 6'd1, 1'b0, `KOLO_OP_RESYNC, node_id, c_dst} :
                   {push_gen, p_rsv[3:0], c_rs, c_ordered, pl_flits, 1'b0, p_netop, node_id, c_dst};
  assign push_h1 = in_rtx ? rx_h1 : rsy_now ? {8'd0, c_tag, 48'd0} : {c_key, c_tag, c_raddr};
  assign push_nbeats = in_rtx ? rx_nbeats : rsy_now ? 4'd1 : pl_beats;
  assign push_dma = in_rtx ? rx_dma : streaming_put && !rsy_now;
  assign push_cls = in_rtx ? !x_h0[KOLO_H0_ORDERED] : rsy_now || !c_ordered;
  // sp holds the INLINE or PIO payload, or an atomic's {compare, operand}
  // (loaded in E_LOAD); a GET_REQ's payload is its byte count
  assign push_beat = in_rtx ? x_beat : rsy_now ? 256'd0 : {sp[255:64], c_get ? {55'd0, n_pl} : sp[63:0]};
  assign push_rtx = in_rtx;
  assign push_rsy = rsy_now;
  assign push_tag = in_rtx ? rx_tag : c_tag;
  assign push_dst = c_dst;
  // push_known is registered in kolo_ni_e2e from (push_dst, la_tag) of the cycle before: a
  // first packet that may need a RESYNC goes in E_PKT after E_FIN (c_dst set in E_LOAD;
  // c_tag <= tag) or after E_PKT (c_dst, c_tag as they are); a resumed operation's first
  // packet needs no look-up (c_first clear): its RESYNC's ACK set known, which only goes
  // from 0 to 1
  assign la_tag = (es == E_FIN) ? tag : c_tag;
  assign push_laddr = c_laddr;
  assign chk_tag = rx_tag;
  assign rx_ready = es == E_IDLE;
  // bytes of a retransmitted PUT packet read from host memory again
  wire [5:0] x_lm1 = x_h0[KOLO_H0_LEN_LO+:6] - 6'd1;
  wire [8:0] x_n = {x_lm1[5:0], 3'b000} + {6'd0, x_h0[`KOLO_H0_LASTB_HI:`KOLO_H0_LASTB_LO]} + 9'd1;
  // ring_free >= pl_beats, with the eight compares done in parallel off the
  // pl_beats path (timing) and one of them selected
  reg [15:0] ring_ge;  // ring_ge[k]: ring_free >= k (pl_beats <= 8)
  integer rk;
  always @(*)
    for (rk = 0; rk < 16; rk = rk + 1) ring_ge[rk] = ring_free >= rk[RING_AW:0];
  wire res_ok = hq_room && (rsy_now ? ring_ge[1] : ring_ge[pl_beats]);
  wire x_ok = hq_room && ring_ge[rx_nbeats] && chk_pend;
  assign rq_valid = (es == E_PKT && streaming_put && !rsy_now && res_ok) || (in_rtx && rx_dma && x_ok);
  assign rq_addr = in_rtx ? x_beat[63:0] : c_laddr;
  assign rq_len = {4'd0, in_rtx ? x_n : n_pl};
  assign rq_id = {2'b00, {(6 - HQ_AW) {1'b0}}, push_idx};
  assign push = (es == E_PKT && res_ok && ((streaming_put && !rsy_now) ? rq_ready : push_beat_ok)) ||
                (in_rtx && x_ok && (rx_dma ? rq_ready : push_beat_ok));
  assign rx_done = in_rtx && (push || !chk_pend);
  wire [30:0] rem_next = c_rem - {22'd0, n_pl};   // (0 when pl_last)
  wire [47:0] raddr_next = c_raddr + {39'd0, n_pl};
  wire [63:0] laddr_next = c_laddr + {55'd0, n_pl};

  // ---- tag table static entry --------------------------------------------------------------
  // {npkts-1[22:0], len[30:0], raddr[47:0], laddr[63:0], dst[11:0], size32, complete, dop[3:0], index[15:0], ctx[3:0]}
  // (packets - 1: the response side compares its count before the increment)
  wire [30:0] span = {23'd0, d_raddr[7:0]} + d_len[30:0] - 31'd1;
  wire unused_bits = &{1'b0, span[7:0], rt_entry[31:23], d_flags[3], p_rsv[4],
                       c_d[127:120], c_d[31:28], d_flags[7:5], d_len[31],   // (checked in E_LOAD: k_*)
                       k_d[119:112], k_d[27:16], k_flags[3:2], k_flags[0]};
  wire [22:0] npkts_m1 = (is_put || is_get) ? span[30:8] : 23'd0;
  assign st_wtag = tag;
  assign st_wdata = {npkts_m1, d_len[30:0], d_raddr, d_w2, d_dst, f_size32, f_complete, d_op[3:0],
                     c_index, c_ctx};

  wire [15:0] ci_c = ci_all[c_slot[3:0]*16+:16];
  wire [15:0] sq_mask = (16'd1 << sq_log2_all[c_slot[3:0]*4+:4]) - 16'd1;

  // ---- E_LOAD: take the item ---------------------------------------------------------------
  wire l_act = act[c_slot];
  wire l_pio = c_slot_pio;
  // was the slot ready when it was chosen, i.e. when the descriptor buffer
  // was read (the scheduler's view is one cycle older)? want_q now holds
  // that cycle's view. (A descriptor landing at the read's clock edge is
  // not in the word read: it must not count.)
  wire l_ready = want_q[c_slot];
  wire l_bdb = !l_act && !l_pio && bdb_pend[c_slot[3:0]];
  wire l_fence = !l_act && !l_pio && !l_bdb && dq_desc[8 + 3] && !ops_idle[c_slot[3:0]] && !dq_err;
  wire l_derr = !l_act && !l_pio && !l_bdb && !l_fence && dq_err;
  wire l_desc = !l_act && !l_pio && !l_bdb && !l_fence && !dq_err;
  wire ev_free = !ev_valid || ev_ready;
  wire in_load = es == E_LOAD;
  // items that only write a completion entry need the event register
  wire l_go = in_load && l_ready && (!(l_bdb || l_derr) || ev_free);
  // a PIO item only if the FIFO holds it (the slot may have been chosen on pio_next_*); without
  // it E_LOAD goes back to idle (a route lookup asked meanwhile is not used)
  wire l_pio_in = l_pio && !l_act && pio_valid;
  assign pio_ready = l_go && l_pio_in;
  assign dq_take = l_go && (l_desc || l_derr);
  assign dq_take_ctx = c_slot[3:0];
  assign bdb_clr = l_go && l_bdb;
  assign bdb_clr_ctx = c_slot[3:0];
  assign take = l_go && (l_pio_in || l_bdb || l_desc || l_derr);
  assign take_ctx = l_pio ? pio_ctx : c_slot[3:0];
  assign stop = l_go && l_derr;
  assign stop_ctx = c_slot[3:0];
  wire [11:0] in_dst = l_pio ? pio_data[27:16] : dq_desc[27:16];
  // bytes 16..31 of the item; SIZE32 keeps only the low 4 bytes of each word
  // (the atomic's operand and compare value; a SIZE32 non-atomic is refused)
  wire [255:128] in_d = l_pio ? pio_data[255:128] : dq_desc[255:128];
  wire in_s32 = l_pio ? pio_data[8 + 4] : dq_desc[8 + 4];
  wire [127:0] in_w32 = {in_s32 ? 32'd0 : in_d[255:224], in_d[223:192],
                         in_s32 ? 32'd0 : in_d[191:160], in_d[159:128]};

  // ---- routing table lookup: asked in E_LOAD, answered in E_FIN or later -------------------
  wire is_nop = d_op == D_NOP;
  wire f_need_rt = pre_st == ST_OK && !is_nop;
  wire want_rt = (in_load && l_go && (l_desc || (l_pio && !l_act))) ||
                 (es == E_FIN && f_need_rt && !rt_wait && !rt_got && !rt_rvalid);
  assign rt_req = want_rt;
  assign rt_id = in_load ? in_dst : d_dst;
  wire rt_ready = rt_got || rt_rvalid;
  wire [22:0] rs_now = rt_got ? c_rs : rt_entry[KOLO_RS_W-1:0];
  wire rok_now = rt_got ? c_rok : rt_ok;

  // ---- E_FIN: checks, tag -----------------------------------------------------------------
  wire f_ready = !f_need_rt || rt_ready;
  wire [7:0] f_st = (pre_st != ST_OK) ? pre_st : is_nop ? ST_OK :
                    !rok_now ? ST_BAD_DST : chk_align ? ST_BAD_ALIGN : ST_OK;
  wire f_event = f_st != ST_OK || is_nop;
  wire in_fin = es == E_FIN && f_ready;
  wire f_ev_go = in_fin && f_event && ev_free;
  wire f_op_go = in_fin && !f_event && tag_valid;
  assign stat_unreachable = f_ev_go && pre_st == ST_OK && !is_nop && !rok_now;
  assign tag_alloc = f_op_go;
  assign st_we = f_op_go;
  assign ops_inc = f_op_go;
  assign ops_inc_ctx = c_ctx;

  // ---- E_PKT ---------------------------------------------------------------------------------
  wire in_pkt = es == E_PKT && push && !rsy_now;   // the operation's packet goes
  wire rsy_go = es == E_PKT && push && rsy_now;
  wire more_small = small_put && !c_act && !pl_last;
  assign pkt_last = in_pkt && !more_small;
  wire act_ends = c_act && pl_last;
  assign put_inc = in_pkt && (streaming_put || c_smr || small_put && !c_act);
  assign put_inc_ctx = c_ctx;
  // (a retransmission or a resumed operation waiting: back to E_IDLE, where they go first)
  reg rdy_ne;
  wire next_go = grant != 17'd0 && !rx_valid && !rdy_ne && (es == E_IDLE || pkt_last);
  assign grant_used = next_go;

  // ---- e2e: operations parked on their tag for a RESYNC (docs/ni.md 10.1) ----------------
  // pk_mem[tag]: the operation as E_PKT holds it when its RESYNC goes; the resume FIFO: the
  // tags whose RESYNC was answered (each tag at most once: <= 256 entries, never full)
  localparam PKW = 1 + 1 + 5 + 1 + 16 + 1 + 1 + 1 + 4 + 31 + 48 + 8 + 23 + 12 + 256;
  reg [PKW-1:0] pk_mem[0:255];
  reg [PKW-1:0] pk_q;
  reg [7:0] rdy_mem[0:255];
  reg [7:0] rdy_wp, rdy_rp, r_tag;
  reg [8:0] rdy_n;
  wire [7:0] rdy_head = rdy_mem[rdy_rp];
  wire rdy_push = wake && wake_rsy;
  wire rdy_pop = es == E_IDLE && !rx_valid && rdy_ne;
  // a RESYNC goes: the operation blocks its slot (further packets, or ORDERED) or frees it
  // (then it resumes as no slot's operation: c_act 0, and c_slot names no slot of its own)
  wire rsy_blk = !pl_last || c_ordered;
  always @(posedge clk) begin
    if (rsy_go)
      pk_mem[c_tag] <= {rsy_blk, c_act && rsy_blk, c_slot, c_pio, c_d[15:0], streaming_put, c_get, c_ordered, c_ctx,
                        c_rem, c_raddr, c_key, c_rs, c_dst,
                        (streaming_put || c_get) ? {192'd0, c_laddr} : sp};
    pk_q <= pk_mem[rdy_head];
    if (rdy_push) rdy_mem[rdy_wp] <= wake_tag;
    if (rdy_pop) r_tag <= rdy_head;
  end
  always @(posedge clk) begin
    if (rst) begin
      rdy_wp <= 8'd0;
      rdy_rp <= 8'd0;
      rdy_n <= 9'd0;
      rdy_ne <= 1'b0;
    end else begin
      if (rdy_push) rdy_wp <= rdy_wp + 8'd1;
      if (rdy_pop) rdy_rp <= rdy_rp + 8'd1;
      rdy_n <= rdy_n + {8'd0, rdy_push} - {8'd0, rdy_pop};
      rdy_ne <= rdy_push || rdy_n[8:1] != 8'd0 || (rdy_n[0] && !rdy_pop);
    end
  end
  // the parked operation's fields
  wire pk_blk = pk_q[PKW-1];
  wire pk_act = pk_q[PKW-2];
  wire [4:0] pk_slot = pk_q[PKW-3-:5];
  wire [PKW-8:0] pk_f = pk_q[PKW-8:0];

  always @(posedge clk) begin
    if (rst) begin
      es <= E_IDLE;
      act <= 17'd0;
      fwait <= 16'd0;
      ev_valid <= 1'b0;
      c_slot <= 5'd0;
      c_slot_pio <= 1'b0;
      streaming_put <= 1'b0;
      c_get <= 1'b0;
      rt_wait <= 1'b0;
      rt_got <= 1'b0;
      sww <= 17'd0;
      smr <= 17'd0;
      c_park <= 1'b0;
      c_smr <= 1'b0;
      c_first <= 1'b0;
      c_act <= 1'b0;
      c_blk <= 1'b0;
      sblk <= 17'd0;
    end else begin
      for (wi = 0; wi < 17; wi = wi + 1) begin
        if (wake && stag[wi] == wake_tag) sww[wi] <= 1'b0;
        // a blocking operation's RESYNC given up: the operation is complete, the slot free
        if (sblk[wi] && ans && ans_done && stag[wi] == ans_tag) begin
          sblk[wi] <= 1'b0;
          act[wi] <= 1'b0;
        end
      end
      if (ev_valid && ev_ready) ev_valid <= 1'b0;
      if (rt_req && rt_gnt) rt_wait <= 1'b1;
      if (rt_rvalid) begin
        rt_wait <= 1'b0;
        rt_got <= 1'b1;
        c_rs <= rt_entry[KOLO_RS_W-1:0];
        c_rok <= rt_ok;
      end
      case (es)
        E_IDLE: if (rx_valid) begin
          es <= E_RTX;
        end else if (rdy_ne) begin
          es <= E_RLD;
        end else if (next_go) begin
          c_slot <= grant_slot;
          c_slot_pio <= grant[PIO];
          es <= E_LOAD;
        end
        E_RTX: if (rx_done) es <= E_IDLE;
        // a resumed operation (its RESYNC answered): reload it from pk_mem (pk_q: the
        // tag taken in E_IDLE), size its packet in E_RL2 (n_pl from c_raddr, c_rem)
        E_RLD: begin
          {c_pio, c_d[15:0], streaming_put, c_get, c_ordered, c_ctx, c_rem, c_raddr, c_key, c_rs, c_dst,
           sp} <= pk_f;
          c_laddr <= pk_f[63:0];
          c_act <= pk_act;
          c_blk <= pk_blk;
          c_slot <= pk_slot;
          c_slot_pio <= pk_slot == PIO;
          c_tag <= r_tag;
          c_smr <= 1'b0;
          c_first <= 1'b0;
          es <= E_RL2;
        end
        E_RL2: es <= E_PKT;
        E_LOAD: begin
          streaming_put <= 1'b0;
          c_get <= 1'b0;
          c_smr <= 1'b0;
          c_first <= 1'b0;
          c_act <= l_act;
          c_blk <= 1'b0;
          rt_got <= 1'b0;
          if (!l_ready) begin
            es <= E_IDLE;
          end else if (l_act) begin
            {c_ctx, c_rem, c_laddr, c_raddr, c_key, c_rs, c_dst, c_ordered, c_tag, c_get} <= as_rd;
            streaming_put <= !as_rd[0] && !smr[c_slot];
            c_smr <= smr[c_slot];
            if (smr[c_slot]) sp <= spm[c_slot];
            es <= E_PKT;
          end else if (l_pio && !pio_valid) begin
            es <= E_IDLE;
          end else if (l_pio) begin
            c_pio <= 1'b1;
            c_chk_op <= k_chk_op;
            c_chk_len <= k_chk_len;
            c_ctx <= pio_ctx;
            c_dst <= in_dst;      // (= d_dst from E_FIN on: push_known is looked up there)
            c_index <= 16'hffff;
            c_d <= pio_data[191:0];
            // a PIO PUT's payload is the chunk's second half; other ops use bytes 16..31
            sp <= (pio_data[7:0] == D_PUT) ? pio_data[511:256] : {128'd0, in_w32};
            es <= E_FIN;
          end else if (l_bdb) begin
            if (ev_free) begin
              ev_data <= {1'b1, 1'b0, c_slot[3:0], ci_c & sq_mask, ST_BAD_DOORBELL, 8'd0, 64'd0};
              ev_valid <= 1'b1;
              es <= E_IDLE;
            end
          end else if (l_fence) begin
            fwait[c_slot[3:0]] <= 1'b1;
            es <= E_IDLE;
          end else if (l_derr) begin
            // the descriptor could not be read: complete it with LOCAL_DMA,
            // and the queue stops
            if (ev_free) begin
              fwait[c_slot[3:0]] <= 1'b0;
              ev_data <= {1'b1, 1'b0, c_slot[3:0], ci_c & sq_mask, ST_LOCAL_DMA, 8'd0, 64'd0};
              ev_valid <= 1'b1;
              es <= E_IDLE;
            end
          end else begin
            fwait[c_slot[3:0]] <= 1'b0;
            c_pio <= 1'b0;
            c_chk_op <= k_chk_op;
            c_chk_len <= k_chk_len;
            c_ctx <= c_slot[3:0];
            c_dst <= in_dst;
            c_index <= ci_c & sq_mask;
            c_d <= dq_desc[191:0];
            sp <= {128'd0, in_w32};
            es <= E_FIN;
          end
        end
        E_FIN: begin
          c_raddr <= d_raddr;
          c_laddr <= d_w2;
          c_rem <= d_len[30:0];
          c_key <= d_key;
          c_ordered <= f_ordered;
          c_rs <= rs_now;
          if (f_ev_go) begin
            ev_data <= {f_st != ST_OK || f_complete, 1'b0, c_ctx, c_index, f_st, d_op, 64'd0};
            ev_valid <= 1'b1;
            es <= E_IDLE;
          end else if (f_op_go) begin
            c_tag <= tag;
            c_first <= 1'b1;
            streaming_put <= is_put && !small_put;
            c_get <= is_get;
            c_act <= streaming;
            if (streaming) act[c_slot] <= 1'b1;
            es <= E_PKT;
          end
        end
        E_PKT: if (rsy_go) begin
          // park the operation on its tag (pk_mem); its slot waits for it (sblk) or goes on
          if (rsy_blk) begin
            sblk[c_slot] <= 1'b1;
            stag[c_slot] <= c_tag;
          end else if (c_act) act[c_slot] <= 1'b0;
          es <= E_IDLE;
        end else if (push) begin
          c_first <= 1'b0;
          c_blk <= 1'b0;
          if (c_blk) sblk[c_slot] <= 1'b0;
          c_raddr <= raddr_next;
          c_laddr <= laddr_next;
          c_rem <= rem_next;
          if (act_ends) begin
            act[c_slot] <= 1'b0;
            smr[c_slot] <= 1'b0;
          end
          // e2e: the next packet of the operation waits for this one's response
          if (e2e_en && ((c_act && !act_ends) || more_small)) begin
            sww[c_slot] <= 1'b1;
            stag[c_slot] <= c_tag;
          end
          if (more_small) begin
            c_shift <= n_pl[5:0];
            c_park <= e2e_en;
            es <= E_SHIFT;
          end else if (next_go) begin
            c_slot <= grant_slot;
            c_slot_pio <= grant[PIO];
            es <= E_LOAD;
          end else es <= E_IDLE;
        end
        E_SHIFT: begin
          if (c_shift >= 6'd8) begin
            sp <= {64'd0, sp[255:64]};
            c_shift <= c_shift - 6'd8;
          end else if (c_shift != 6'd0) begin
            sp <= {8'd0, sp[255:8]};
            c_shift <= c_shift - 6'd1;
          end else if (c_park) begin
            // e2e: park the second packet until the first is answered
            // (sww was set as the first packet went: its answer may already be in)
            act[c_slot] <= 1'b1;
            smr[c_slot] <= 1'b1;
            es <= E_IDLE;
          end else es <= E_PKT;
        end
        default: es <= E_IDLE;
      endcase
    end
  end
  // progress state written back after each packet of a PUT/GET
  wire park = es == E_SHIFT && c_shift == 6'd0 && c_park;
  always @(posedge clk) begin
    if (in_pkt && c_act)
      as_mem[c_slot] <= {c_ctx, rem_next, laddr_next, raddr_next, c_key, c_rs, c_dst, c_ordered,
                         c_tag, c_get};
    else if (park)
      as_mem[c_slot] <= {c_ctx, c_rem, c_laddr, c_raddr, c_key, c_rs, c_dst, c_ordered, c_tag, 1'b0};
    if (park) spm[c_slot] <= sp;
  end

  assign dbg = {4'd0, ev_valid, tag_valid, rt_wait, rt_got, c_slot, es};
  // (tag_alloc includes tag_valid: a tag is never taken without one, so the
  // former guard of that rule could not fire and is gone)
endmodule
`default_nettype wire
