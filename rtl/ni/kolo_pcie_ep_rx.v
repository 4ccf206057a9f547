`default_nettype none
// kolo_pcie_ep_rx - receive side of the PCIe endpoint core (docs/ni.md 6).
//
// Takes the TLPs from the link (rx_tlp_*, one beat per handshake: header on
// the sop beat, payload DW0 in bits 31:0 of the first beat) and sorts them:
//  - memory writes to BAR0/BAR2 (3- and 4-DW headers, any length that stays
//    inside the BAR) become MMIO write chunks, one per 64-byte-aligned
//    64-byte block the write touches: mmio_wr_data holds the 16 DWs of the
//    block (the DW at byte offset 4*i in bits 32*i+31:32*i), mmio_wr_strb the
//    byte enables (the TLP's first/last byte enables on its first/last DW).
//    A zero-length write (1 DW, no byte enabled) is dropped.
//  - memory reads of the BARs of 1 DW, or of 2 DWs at an 8-byte-aligned
//    address, become a non-posted request to kolo_pcie_ep_cpl (np_*): a user
//    read of 4 or 8 bytes, or, for a zero-length read, a completion without
//    a user access.
//  - every other request is unsupported: I/O, configuration, messages,
//    atomics, locked reads, reads of more than 8 bytes or 8 unaligned bytes,
//    addresses outside the BARs (also a write that runs past a BAR's end),
//    poisoned requests. A non-posted one becomes an np_* request with
//    np_kind UR (the completer answers with a UR completion); a posted one
//    is dropped. Each is counted once on ev_ur.
//  - completions (Cpl, CplD) go to the DMA read engine on cpl_* unchanged,
//    merged whole TLP by whole TLP with the completions of the second input
//    rx_cpl_* (a shim whose block delivers completions on their own stream,
//    UltraScale's RC: they then never wait behind host requests).
//  - anything else (unknown Fmt/Type, TLP prefixes, locked completions are
//    passed on as completions and refused there), memory requests with
//    illegal byte enables, and beats whose framing or dw_en disagree with the
//    header's Length are counted on ev_bad; such a TLP is dropped (a write
//    whose framing goes wrong midway has already sent its earlier chunks).
// The ECRC digest is never in the stream (the vendor shim strips it; TD is
// ignored). The header is decoded as the beat enters the input FIFO; the
// class and the request fields travel with it.
// Ordering (PCIe table 2-40, docs/ni.md 6 "Ordering"): host writes reach
// mmio_wr_* in arrival order. A non-posted request leaves the input FIFO
// into a queue of NP_DEPTH entries (np_*), so that later writes and
// completions pass it while the completer is busy (A3/A4, D3/D4: they must
// be able to). A request is offered on np_* only once every MMIO write chunk
// that arrived before it has been accepted on mmio_wr_* (B2a: a read does
// not pass a write); the completer's mmio_rd_valid then follows at least one
// cycle after that handshake. np_credit pulses once per queue entry the
// shim may fill: NP_DEPTH times after reset, then once per request taken
// (the shims turn it into the block's non-posted flow control, so that a
// request never waits in the input FIFO for room in the queue; without
// flow control a full queue holds the FIFO, as before).
// Handshakes: the link's beats enter a 2-beat FIFO (rx_tlp_ready = not full,
// registered). A beat leaves it when its consumer takes it: the NP queue for
// the sop beat of a non-posted request, the MMIO write output register being
// free for write beats, the completion merge for completion beats, always
// for the rest. The MMIO write outputs are registered (valid/ready, held
// while !ready). A write whose last beat spills into a new 64-byte block
// takes one extra cycle. rx_cpl_* beats enter a 2-beat FIFO of their own.
// Completion beats are passed on registered, one cycle later, with no
// handshake: the DMA read engine takes every beat.
module kolo_pcie_ep_rx #(
    parameter BAR0_SIZE_LOG2 = 17,
    parameter BAR2_SIZE_LOG2 = 16,
    parameter NP_DEPTH = 16           // non-posted requests queued, 2..64
) (
    input  wire         clk,
    input  wire         rst,
    // TLPs from the link
    input  wire         rx_tlp_valid,
    output wire         rx_tlp_ready,
    input  wire [127:0] rx_tlp_hdr,
    input  wire [255:0] rx_tlp_data,
    input  wire         rx_tlp_sop,
    input  wire         rx_tlp_eop,
    input  wire [7:0]   rx_tlp_dw_en,
    // completions only, from a block that delivers them on a stream of their own
    input  wire         rx_cpl_valid,
    output wire         rx_cpl_ready,
    input  wire [127:0] rx_cpl_hdr,
    input  wire [255:0] rx_cpl_data,
    input  wire         rx_cpl_sop,
    input  wire         rx_cpl_eop,
    input  wire [7:0]   rx_cpl_dw_en,
    output reg          np_credit,   // one more non-posted request may come
    input  wire [63:0]  cfg_bar0,
    input  wire [63:0]  cfg_bar2,
    // MMIO write chunks
    output reg          mmio_wr_valid,
    input  wire         mmio_wr_ready,
    output reg  [1:0]   mmio_wr_bar,
    output reg  [31:0]  mmio_wr_addr,
    output reg  [511:0] mmio_wr_data,
    output reg  [63:0]  mmio_wr_strb,
    // non-posted requests to kolo_pcie_ep_cpl, from the NP queue
    output wire         np_valid,
    input  wire         np_ready,
    output wire [1:0]   np_kind,     // 0 user read, 1 zero-length read, 2 UR
    output wire [1:0]   np_bar,
    output wire [31:0]  np_addr,     // byte offset in the BAR, aligned to np_len
    output wire [3:0]   np_len,      // 4 or 8
    output wire [15:0]  np_req_id,
    output wire [9:0]   np_tag,
    output wire [2:0]   np_tc,
    output wire [2:0]   np_attr,     // {IDO, RO, NS}: DW0 bits 18, 13:12
    output wire [6:0]   np_lower_addr,
    output wire [11:0]  np_byte_count,   // 0 = 4096
    output wire         np_locked,   // answer with CplLk (a locked read)
    // completions for the DMA read engine
    output reg          cpl_valid,
    output reg  [127:0] cpl_hdr,
    output reg  [255:0] cpl_data,
    output reg          cpl_sop,
    output reg          cpl_eop,
    output reg  [7:0]   cpl_dw_en,
    // event pulses (counted in kolo_pcie_ep)
    output reg          ev_ur,
    output reg          ev_bad
);
  // ---- parameter checks ---------------------------------------------------------
  generate
    if (BAR0_SIZE_LOG2 < 12 || BAR0_SIZE_LOG2 > 31 || BAR2_SIZE_LOG2 < 12 || BAR2_SIZE_LOG2 > 31) begin : g_bad_bar
      kolo_pcie_ep_rx_bad_bar_size_log2 u_bad ();  // BAR sizes: 4 KiB .. 2 GiB
    end
    if (NP_DEPTH < 2 || NP_DEPTH > 64) begin : g_bad_np
      kolo_pcie_ep_rx_PARAMETER_ERROR_NP_DEPTH_must_be_2_to_64 u_bad ();
    end
  endgenerate

  localparam [31:0] MASK0 = (32'd1 << BAR0_SIZE_LOG2) - 32'd1;
  localparam [31:0] MASK2 = (32'd1 << BAR2_SIZE_LOG2) - 32'd1;
  localparam [31:0] DWS0 = 32'd1 << (BAR0_SIZE_LOG2 - 2);
  localparam [31:0] DWS2 = 32'd1 << (BAR2_SIZE_LOG2 - 2);

  // classes of a TLP
  localparam [2:0] C_WR = 3'd0, C_NP = 3'd1, C_DROP_UR = 3'd2, C_CPL = 3'd3, C_BAD = 3'd4,
                   C_NOP = 3'd5;
  localparam [1:0] K_READ = 2'd0, K_ZERO = 2'd1, K_UR = 2'd2;
  // state
  localparam [2:0] S_IDLE = 3'd0, S_WR = 3'd1, S_CPL = 3'd2, S_DROP = 3'd3, S_FLUSH = 3'd4;

  // ---- header decode, on the link side of the input FIFO (meaningful on a
  // sop beat); the results travel with the beat through the FIFO ------------------
  wire [31:0] dw0 = rx_tlp_hdr[31:0];
  wire [31:0] dw1 = rx_tlp_hdr[63:32];
  wire [31:0] dw2 = rx_tlp_hdr[95:64];
  wire [31:0] dw3 = rx_tlp_hdr[127:96];
  wire [2:0] fmt = dw0[31:29];
  wire [4:0] typ = dw0[28:24];
  wire [10:0] ldw = (dw0[9:0] == 10'd0) ? 11'd1024 : {1'b0, dw0[9:0]};
  wire poisoned = dw0[14];
  wire [3:0] fbe = dw1[3:0];
  wire [3:0] lbe = dw1[7:4];
  wire [63:0] addr = fmt[0] ? {dw2, dw3[31:2], 2'b00} : {32'd0, dw2[31:2], 2'b00};

  wire f_nd = (fmt[2:1] == 2'b00);  // 3/4-DW header, no data
  wire f_d = (fmt[2:1] == 2'b01);   // 3/4-DW header with data
  wire is_mrd = f_nd && typ == 5'b00000;
  wire is_mwr = f_d && typ == 5'b00000;
  wire is_mrdlk = f_nd && typ == 5'b00001;
  wire is_io = (fmt == 3'b000 || fmt == 3'b010) && typ == 5'b00010;
  wire is_cfg = (fmt == 3'b000 || fmt == 3'b010) && typ[4:1] == 4'b0010;
  wire is_msg = fmt[2] == 1'b0 && fmt[0] == 1'b1 && typ[4:3] == 2'b10;
  wire is_cpl = (fmt == 3'b000 || fmt == 3'b010) && typ[4:1] == 4'b0101;  // Cpl(D)(Lk)
  wire is_fadd = f_d && typ == 5'b01100;
  wire is_swap = f_d && typ == 5'b01101;
  wire is_cas = f_d && typ == 5'b01110;
  wire is_atomic = is_fadd || is_swap || is_cas;

  wire hit0 = addr[63:BAR0_SIZE_LOG2] == cfg_bar0[63:BAR0_SIZE_LOG2];
  wire hit2 = addr[63:BAR2_SIZE_LOG2] == cfg_bar2[63:BAR2_SIZE_LOG2];
  wire [31:0] off0 = addr[31:0] & MASK0;
  wire [31:0] off2 = addr[31:0] & MASK2;
  wire [31:0] end_dw0 = {2'b00, off0[31:2]} + {21'd0, ldw};  // DW after the access
  wire [31:0] end_dw2 = {2'b00, off2[31:2]} + {21'd0, ldw};
  wire in0 = hit0 && end_dw0 <= DWS0;
  wire in2 = hit2 && !hit0 && end_dw2 <= DWS2;
  wire in_bar = in0 || in2;
  wire [31:0] off = in0 ? off0 : off2;

  // byte enables: length 1 has no last BE; longer ones need both (PCIe 2.2.5)
  wire be_ok = (ldw == 11'd1) ? (lbe == 4'd0) : (fbe != 4'd0 && lbe != 4'd0);
  wire rd_ok = (ldw == 11'd1) || (ldw == 11'd2 && addr[2] == 1'b0);

  // byte count / lower address of a memory read (PCIe 2.3.1.1)
  reg [12:0] mem_bc;
  reg [1:0] fbe_skip;
  always @(*) begin
    casez (fbe)
      4'b???1: fbe_skip = 2'd0;
      4'b??10: fbe_skip = 2'd1;
      4'b?100: fbe_skip = 2'd2;
      4'b1000: fbe_skip = 2'd3;
      default: fbe_skip = 2'd0;
    endcase
    if (ldw == 11'd1) begin
      casez (fbe)
        4'b1??1: mem_bc = 13'd4;
        4'b01?1, 4'b1?10: mem_bc = 13'd3;
        4'b0011, 4'b0110, 4'b1100: mem_bc = 13'd2;
        default: mem_bc = 13'd1;  // one byte enabled, or none (zero-length read)
      endcase
    end else begin
      casez (lbe)
        4'b1???: mem_bc = {ldw, 2'b00} - {11'd0, fbe_skip};
        4'b01??: mem_bc = {ldw, 2'b00} - {11'd0, fbe_skip} - 13'd1;
        4'b001?: mem_bc = {ldw, 2'b00} - {11'd0, fbe_skip} - 13'd2;
        default: mem_bc = {ldw, 2'b00} - {11'd0, fbe_skip} - 13'd3;
      endcase
    end
  end

  // ---- classification of the TLP on the sop beat -------------------------------------
  reg [2:0]  d_cls;
  reg [1:0]  d_kind, d_bar;
  reg [31:0] d_addr;
  reg [3:0]  d_len;
  reg [6:0]  d_la;
  reg [11:0] d_bc;
  reg        d_locked;
  always @(*) begin
    d_kind = K_UR;
    d_bar = in0 ? 2'd0 : 2'd2;
    d_addr = (ldw == 11'd2) ? {off[31:3], 3'b000} : {off[31:2], 2'b00};
    d_len = (ldw == 11'd2) ? 4'd8 : 4'd4;
    d_la = 7'd0;
    d_bc = 12'd4;
    d_locked = 1'b0;
    if (is_mrd || is_mrdlk) begin
      d_la = {addr[6:2], fbe_skip};
      d_bc = mem_bc[11:0];
    end else if (is_atomic) begin
      d_bc = is_cas ? {ldw[9:0], 2'b00} >> 1 : {ldw[9:0], 2'b00};
    end
    if (is_mwr) begin
      if (poisoned || !in_bar) d_cls = C_DROP_UR;
      else if (!be_ok) d_cls = C_BAD;  // illegal byte enables
      else if (ldw == 11'd1 && fbe == 4'd0) d_cls = C_NOP;  // zero-length write
      else d_cls = C_WR;
    end else if (is_mrd) begin
      d_cls = C_NP;
      if (!poisoned && in_bar && rd_ok && be_ok) d_kind = (ldw == 11'd1 && fbe == 4'd0) ? K_ZERO : K_READ;
    end else if (is_mrdlk) begin
      d_cls = C_NP;
      d_locked = 1'b1;
    end else if (is_io || is_cfg || is_atomic) begin
      d_cls = C_NP;
    end else if (is_msg) begin
      d_cls = C_DROP_UR;
    end else if (is_cpl) begin
      d_cls = C_CPL;
    end else begin
      d_cls = C_BAD;
    end
  end


  // ---- input FIFO (2 beats; rx_tlp_ready = not full): the beat and its
  // decode results (class, BAR, non-posted request fields, write block) ---------
  localparam integer SIDE_W = 3 + 2 + 2 + 32 + 4 + 7 + 12 + 1 + 26;
  wire [SIDE_W-1:0] d_side = {d_cls, d_kind, d_bar, d_addr, d_len, d_la, d_bc, d_locked, off[31:6]};
  wire [SIDE_W-1:0] i_side;
  wire         i_valid;
  reg          i_ready;
  wire [127:0] i_hdr;
  wire [255:0] i_data;
  wire         i_sop, i_eop;
  wire [7:0]   i_dw_en;
  wire [1:0]   i_count;
  kolo_fifo_sync #(.WIDTH(SIDE_W + 128 + 256 + 2 + 8), .DEPTH(2)) u_in (
      .clk(clk), .rst(rst),
      .in_valid(rx_tlp_valid), .in_ready(rx_tlp_ready),
      .in_data({d_side, rx_tlp_hdr, rx_tlp_data, rx_tlp_sop, rx_tlp_eop, rx_tlp_dw_en}),
      .out_valid(i_valid), .out_ready(i_ready),
      .out_data({i_side, i_hdr, i_data, i_sop, i_eop, i_dw_en}),
      .count(i_count)
  );
  wire [2:0]  i_cls;
  wire [1:0]  i_bar;
  wire [25:0] i_blk;
  wire [1:0]  i_kind;
  wire [31:0] i_np_addr;
  wire [3:0]  i_np_len;
  wire [6:0]  i_np_la;
  wire [11:0] i_np_bc;
  wire        i_np_locked;
  assign {i_cls, i_kind, i_bar, i_np_addr, i_np_len, i_np_la, i_np_bc, i_np_locked, i_blk} = i_side;
  // fields of the FIFO head's header that the data path needs
  wire [31:0] h0 = i_hdr[31:0];
  wire [31:0] h1 = i_hdr[63:32];
  wire [10:0] i_ldw = (h0[9:0] == 10'd0) ? 11'd1024 : {1'b0, h0[9:0]};
  wire        i_has_data = h0[30];
  wire [3:0]  i_fbe = h1[3:0];
  wire [3:0]  i_lbe = h1[7:4];
  wire [3:0]  i_pos = h0[29] ? i_hdr[101:98] : i_hdr[69:66];  // address bits 5:2
  // ---- the NP queue: the request's fields; the newest np_wait entries wait
  // for the MMIO write chunk that was pending when they came (all of them
  // for the same one: a newer chunk cannot enter the output register first)
  localparam integer NPQ_W = 2 + 2 + 32 + 4 + 7 + 12 + 1 + 16 + 10 + 3 + 3;
  localparam integer NPC_W = $clog2(NP_DEPTH + 1);
  wire [NPQ_W-1:0] npq_in = {i_kind, i_bar, i_np_addr, i_np_len, i_np_la, i_np_bc, i_np_locked,
                             h1[31:16], h0[23], h0[19], h1[15:8], h0[22:20], h0[18], h0[13:12]};
  wire             npq_push;
  wire             npq_room;
  wire             npq_valid;
  wire [NPC_W-1:0] npq_count;
  reg  [NPC_W-1:0] np_wait;
  kolo_fifo_sync #(.WIDTH(NPQ_W), .DEPTH(NP_DEPTH)) u_npq (
      .clk(clk), .rst(rst),
      .in_valid(npq_push), .in_ready(npq_room), .in_data(npq_in),
      .out_valid(npq_valid), .out_ready(np_valid && np_ready),
      .out_data({np_kind, np_bar, np_addr, np_len, np_lower_addr, np_byte_count, np_locked, np_req_id,
                 np_tag, np_tc, np_attr}),
      .count(npq_count)
  );
  assign np_valid = npq_valid && (npq_count > np_wait);
  wire mw_fire = mmio_wr_valid && mmio_wr_ready;
  wire mw_pending = mmio_wr_valid && !mmio_wr_ready;   // a chunk that arrived earlier, not yet taken
  // credits for the shim: NP_DEPTH after reset, then one per request taken
  reg [NPC_W:0] np_cr_pend;
  always @(posedge clk) begin
    if (rst) begin
      np_wait <= {NPC_W{1'b0}};
      np_cr_pend <= NP_DEPTH[NPC_W:0];
      np_credit <= 1'b0;
    end else begin
      if (mw_fire) np_wait <= {NPC_W{1'b0}};
      else if (npq_push && mw_pending) np_wait <= np_wait + {{(NPC_W-1){1'b0}}, 1'b1};
      np_credit <= np_cr_pend != {(NPC_W+1){1'b0}};
      np_cr_pend <= np_cr_pend + {{NPC_W{1'b0}}, np_valid && np_ready} -
                    {{NPC_W{1'b0}}, np_cr_pend != {(NPC_W+1){1'b0}}};
    end
  end

  // ---- completions of the second input, and the merge ----------------------------------
  wire         p_valid;
  reg          p_ready;
  wire [127:0] p_hdr;
  wire [255:0] p_data;
  wire         p_sop, p_eop;
  wire [7:0]   p_dw_en;
  wire [1:0]   p_count;
  kolo_fifo_sync #(.WIDTH(128 + 256 + 2 + 8), .DEPTH(2)) u_cpl_in (
      .clk(clk), .rst(rst),
      .in_valid(rx_cpl_valid), .in_ready(rx_cpl_ready),
      .in_data({rx_cpl_hdr, rx_cpl_data, rx_cpl_sop, rx_cpl_eop, rx_cpl_dw_en}),
      .out_valid(p_valid), .out_ready(p_ready),
      .out_data({p_hdr, p_data, p_sop, p_eop, p_dw_en}),
      .count(p_count)
  );

  // ---- state --------------------------------------------------------------------------
  reg [2:0] state;
  reg [10:0] rem;        // payload DWs of the TLP not yet seen (before this beat)
  reg        bad_frame;  // framing error seen in this TLP

  // beat bookkeeping: this beat's payload DWs and their expected dw_en
  wire [10:0] rem_now = (state == S_IDLE) ? i_ldw : rem;
  wire has_payload = (state == S_IDLE) ? i_has_data : 1'b1;
  wire [3:0] n_now = !has_payload ? 4'd0 : (rem_now >= 11'd8) ? 4'd8 : rem_now[3:0];
  wire [7:0] exp_en = (n_now == 4'd8) ? 8'hFF : ((8'd1 << n_now[2:0]) - 8'd1);
  wire exp_last = !has_payload || rem_now <= 11'd8;
  wire beat_bad = (i_dw_en != exp_en) || (i_eop != exp_last);

  // ---- MMIO write chunker -----------------------------------------------------------------
  reg [3:0]  wr_pos;       // position in the 16-DW block of this beat's first DW
  reg [25:0] wr_blk;       // block address (offset[31:6]) of the block being filled
  reg [1:0]  wr_bar;
  reg [3:0]  wr_lbe;
  reg [511:0] acc_data;
  reg [63:0]  acc_strb;

  wire wr_sop = (state == S_IDLE);
  wire [3:0] pos_now = wr_sop ? i_pos : wr_pos;
  wire [3:0] lbe_now = wr_sop ? i_lbe : wr_lbe;
  // byte enables of the beat's DWs
  reg [31:0] beat_strb;
  integer bi;
  always @(*) begin
    for (bi = 0; bi < 8; bi = bi + 1) begin
      if (bi >= n_now) beat_strb[bi*4+:4] = 4'd0;
      else if (wr_sop && bi == 0) beat_strb[bi*4+:4] = i_fbe;
      else if (rem_now <= 11'd8 && bi[10:0] == rem_now - 11'd1) beat_strb[bi*4+:4] = lbe_now;
      else beat_strb[bi*4+:4] = 4'hF;
    end
  end
  // rotate the beat's DWs to their block positions (16 positions, wrapping)
  reg [511:0] rot_data;
  reg [63:0]  rot_strb;
  reg [15:0]  rot_cur;     // position belongs to the block being filled (not wrapped)
  integer rj;
  reg [3:0] rk;
  always @(*) begin
    for (rj = 0; rj < 16; rj = rj + 1) begin
      rk = rj[3:0] - pos_now;
      rot_cur[rj] = (rj[3:0] >= pos_now);
      if (rk < 4'd8) begin
        rot_data[rj*32+:32] = i_data[rk[2:0]*32+:32];
        rot_strb[rj*4+:4] = beat_strb[rk[2:0]*4+:4];
      end else begin
        rot_data[rj*32+:32] = 32'd0;
        rot_strb[rj*4+:4] = 4'd0;
      end
    end
  end
  reg [511:0] cur_data, wrap_data;
  reg [63:0]  cur_strb, wrap_strb;
  integer cj;
  always @(*) begin
    for (cj = 0; cj < 16; cj = cj + 1) begin
      if (rot_cur[cj]) begin
        cur_data[cj*32+:32] = wr_sop ? rot_data[cj*32+:32] :
            (rot_strb[cj*4+:4] != 4'd0 ? rot_data[cj*32+:32] : acc_data[cj*32+:32]);
        cur_strb[cj*4+:4] = wr_sop ? rot_strb[cj*4+:4] : (rot_strb[cj*4+:4] | acc_strb[cj*4+:4]);
        wrap_data[cj*32+:32] = 32'd0;
        wrap_strb[cj*4+:4] = 4'd0;
      end else begin
        cur_data[cj*32+:32] = wr_sop ? 32'd0 : acc_data[cj*32+:32];
        cur_strb[cj*4+:4] = wr_sop ? 4'd0 : acc_strb[cj*4+:4];
        wrap_data[cj*32+:32] = rot_data[cj*32+:32];
        wrap_strb[cj*4+:4] = rot_strb[cj*4+:4];
      end
    end
  end
  wire [4:0] fill = {1'b0, pos_now} + {1'b0, n_now};
  wire wr_last = i_eop || rem_now <= 11'd8;   // last beat that carries data
  wire wr_emit = (fill >= 5'd16) || wr_last;
  wire out_free = !mmio_wr_valid || mmio_wr_ready;

  // ---- the beat's fate --------------------------------------------------------------------
  wire [2:0] cls = (state == S_IDLE) ? (i_sop ? i_cls : C_BAD) :
                   (state == S_WR) ? C_WR : (state == S_CPL) ? C_CPL : C_NOP;

  // completion merge: whole TLPs, alternating when both inputs wait
  localparam [1:0] O_NONE = 2'd0, O_MAIN = 2'd1, O_PORT = 2'd2;
  reg [1:0] c_own;
  reg       c_last_port;   // the last TLP came from rx_cpl_*
  wire main_cpl = i_valid && (state == S_CPL || (state == S_IDLE && i_sop && i_cls == C_CPL));
  wire g_main = main_cpl && (c_own == O_MAIN || (c_own == O_NONE && (!p_valid || c_last_port)));
  wire g_port = p_valid && (c_own == O_PORT || (c_own == O_NONE && !(main_cpl && (!p_valid || c_last_port))));

  always @(*) begin
    p_ready = g_port;
    case (state)
      S_FLUSH: i_ready = 1'b0;
      S_WR: i_ready = out_free;
      S_CPL: i_ready = g_main;
      S_DROP: i_ready = 1'b1;
      default: begin  // S_IDLE
        case (cls)
          C_WR: i_ready = out_free;
          C_NP: i_ready = npq_room;
          C_CPL: i_ready = g_main;
          default: i_ready = 1'b1;
        endcase
      end
    endcase
  end

  wire fire = i_valid && i_ready;
  assign npq_push = fire && state == S_IDLE && cls == C_NP;

  // completions go to the DMA read engine one cycle later (it takes every beat)
  always @(posedge clk) begin
    if (rst) begin
      cpl_valid <= 1'b0;
      c_own <= O_NONE;
      c_last_port <= 1'b0;
    end else begin
      cpl_valid <= g_main || g_port;
      if (g_main) begin
        c_own <= i_eop ? O_NONE : O_MAIN;
        c_last_port <= 1'b0;
      end else if (g_port) begin
        c_own <= p_eop ? O_NONE : O_PORT;
        c_last_port <= 1'b1;
      end
    end
    cpl_hdr <= g_port ? p_hdr : i_hdr;
    cpl_data <= g_port ? p_data : i_data;
    cpl_sop <= g_port ? p_sop : i_sop;
    cpl_eop <= g_port ? p_eop : i_eop;
    cpl_dw_en <= g_port ? p_dw_en : i_dw_en;
  end

  always @(posedge clk) begin
    if (rst) begin
      state <= S_IDLE;
      rem <= 11'd0;
      bad_frame <= 1'b0;
      wr_pos <= 4'd0;
      wr_blk <= 26'd0;
      wr_bar <= 2'd0;
      wr_lbe <= 4'd0;
      acc_data <= 512'd0;
      acc_strb <= 64'd0;
      mmio_wr_valid <= 1'b0;
      mmio_wr_bar <= 2'd0;
      mmio_wr_addr <= 32'd0;
      mmio_wr_data <= 512'd0;
      mmio_wr_strb <= 64'd0;
      ev_ur <= 1'b0;
      ev_bad <= 1'b0;
    end else begin
      ev_ur <= 1'b0;
      ev_bad <= 1'b0;
      if (mmio_wr_valid && mmio_wr_ready) mmio_wr_valid <= 1'b0;

      if (state == S_FLUSH) begin
        if (out_free) begin
          mmio_wr_valid <= 1'b1;
          mmio_wr_bar <= wr_bar;
          mmio_wr_addr <= {wr_blk, 6'd0};
          mmio_wr_data <= acc_data;
          mmio_wr_strb <= acc_strb;
          state <= S_IDLE;
        end
      end else if (fire) begin
        rem <= rem_now - {7'd0, n_now};
        if (state == S_IDLE) begin
          bad_frame <= 1'b0;
          if (i_sop && (i_cls == C_DROP_UR || (i_cls == C_NP && i_kind == K_UR))) ev_ur <= 1'b1;
          if (!i_sop || i_cls == C_BAD) ev_bad <= 1'b1;  // stray beat, unknown type, bad BEs
        end
        if (cls == C_WR && beat_bad) begin
          bad_frame <= 1'b1;
          if (!bad_frame || state == S_IDLE) ev_bad <= 1'b1;
        end
        // next state
        if (state == S_IDLE && !i_sop) state <= S_IDLE;
        else if (cls == C_WR) begin
          if (wr_last) state <= i_eop ? S_IDLE : S_DROP;
          else state <= S_WR;
        end else if (cls == C_CPL) state <= i_eop ? S_IDLE : S_CPL;
        else state <= i_eop ? S_IDLE : S_DROP;

        if (cls == C_WR) begin
          if (state == S_IDLE) begin
            wr_bar <= i_bar;
            wr_lbe <= i_lbe;
          end
          wr_pos <= fill[3:0];
          if (wr_emit) begin
            mmio_wr_valid <= 1'b1;
            mmio_wr_bar <= (state == S_IDLE) ? i_bar : wr_bar;
            mmio_wr_addr <= {((state == S_IDLE) ? i_blk : wr_blk), 6'd0};
            mmio_wr_data <= cur_data;
            mmio_wr_strb <= cur_strb;
            wr_blk <= ((state == S_IDLE) ? i_blk : wr_blk) + 26'd1;
            acc_data <= wrap_data;
            acc_strb <= wrap_strb;
            if (wr_last && fill > 5'd16) state <= S_FLUSH;
          end else begin
            if (state == S_IDLE) wr_blk <= i_blk;
            acc_data <= cur_data;
            acc_strb <= cur_strb;
          end
        end
      end
    end
  end

  // the chunk a flush emits always has data (the wrapped DWs of the last beat)
  wire unused_rx = &{1'b0, i_count, p_count, dw3[1:0], dw0[23:15], dw0[13:10], dw1[31:8], h0[31], h0[28:24],
                     h0[17:14], h0[11:10], off[1:0], mem_bc[12],
                     cfg_bar0[BAR0_SIZE_LOG2-1:0], cfg_bar2[BAR2_SIZE_LOG2-1:0]};

  // ---- assertions (simulation): B2a, a non-posted request never goes to the
  // completer before every write chunk that arrived before it was accepted
  // (counted independently of np_wait: chunks loaded and chunks taken)
`ifndef SYNTHESIS
`include "kolo_assert.vh"
  wire sim_chunk_load = (state == S_FLUSH && out_free) || (fire && cls == C_WR && wr_emit);
  integer sim_loaded, sim_taken, sim_wr, sim_rd;
  integer sim_need [0:63];
  always @(posedge clk) begin
    if (rst) begin
      sim_loaded <= 0;
      sim_taken <= 0;
      sim_wr <= 0;
      sim_rd <= 0;
    end else begin
      if (np_valid && np_ready) begin
        `KOLO_ASSERT(!(sim_taken + (mw_fire ? 1 : 0) < sim_need[sim_rd % 64]));  // passed a write
        sim_rd <= sim_rd + 1;
      end
      if (npq_push) begin
        sim_need[sim_wr % 64] <= sim_loaded;
        sim_wr <= sim_wr + 1;
      end
      if (sim_chunk_load) sim_loaded <= sim_loaded + 1;
      if (mw_fire) sim_taken <= sim_taken + 1;
    end
  end
`endif

`ifdef FORMAL
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;
  always @(*) begin
    if (f_rst_seen) begin
      // a chunk never goes out without a byte to write
      if (mmio_wr_valid) assert(mmio_wr_strb != 64'd0);
      if (state == S_FLUSH) assert(acc_strb != 64'd0);
    end
  end
  // a write chunk offered and not taken stays, unchanged (previous values in
  // explicit registers, not $past/$stable: Verilator 5.006 can sample those
  // after the register's update)
  reg f_held_q = 1'b0;
  reg [$bits(mmio_wr_data)-1:0] f_data_q;
  reg [$bits(mmio_wr_addr)-1:0] f_addr_q;
  reg [$bits(mmio_wr_strb)-1:0] f_strb_q;
  always @(posedge clk) begin
    f_held_q <= mmio_wr_valid && !mmio_wr_ready && !rst;
    f_data_q <= mmio_wr_data;
    f_addr_q <= mmio_wr_addr;
    f_strb_q <= mmio_wr_strb;
  end
  always @(posedge clk) begin
    if (f_rst_seen && !rst && f_held_q) begin
      assert(mmio_wr_valid && mmio_wr_data == f_data_q && mmio_wr_addr == f_addr_q &&
             mmio_wr_strb == f_strb_q);
    end
  end
`endif
endmodule
`default_nettype wire
