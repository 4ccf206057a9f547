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
// class, the request fields and the sop beat's part in the write chunker
// travel with it (timing, issue 21: <= 6 LUT levels; no cycle added).
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
  wire [6:2] addr = fmt[0] ? dw3[6:2] : dw2[6:2];   // address bits 6:2 (the BAR check below)

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

  // BAR hits and the access staying inside the BAR (the DW after it at most
  // the BAR's size in DWs), for the 3-DW and the 4-DW header's address side
  // by side, then picked by the header size (timing: no address mux first)
  wire [31:0] a3 = {dw2[31:2], 2'b00};
  wire [31:0] a4 = {dw3[31:2], 2'b00};
  wire hit0_3 = (a3[31:BAR0_SIZE_LOG2] == cfg_bar0[31:BAR0_SIZE_LOG2]) && (cfg_bar0[63:32] == 32'd0);
  wire hit0_4 = {dw2, a4[31:BAR0_SIZE_LOG2]} == cfg_bar0[63:BAR0_SIZE_LOG2];
  wire hit2_3 = (a3[31:BAR2_SIZE_LOG2] == cfg_bar2[31:BAR2_SIZE_LOG2]) && (cfg_bar2[63:32] == 32'd0);
  wire hit2_4 = {dw2, a4[31:BAR2_SIZE_LOG2]} == cfg_bar2[63:BAR2_SIZE_LOG2];
  wire [31:0] off0_3 = a3 & MASK0, off0_4 = a4 & MASK0;
  wire [31:0] off2_3 = a3 & MASK2, off2_4 = a4 & MASK2;
  // (the Length field and Length 1024 side by side: no zero test before the add)
  wire len0 = (dw0[9:0] == 10'd0);
  wire e0_3 = len0 ? ({2'b00, off0_3[31:2]} + 32'd1024) <= DWS0 : ({2'b00, off0_3[31:2]} + {22'd0, dw0[9:0]}) <= DWS0;
  wire e0_4 = len0 ? ({2'b00, off0_4[31:2]} + 32'd1024) <= DWS0 : ({2'b00, off0_4[31:2]} + {22'd0, dw0[9:0]}) <= DWS0;
  wire e2_3 = len0 ? ({2'b00, off2_3[31:2]} + 32'd1024) <= DWS2 : ({2'b00, off2_3[31:2]} + {22'd0, dw0[9:0]}) <= DWS2;
  wire e2_4 = len0 ? ({2'b00, off2_4[31:2]} + 32'd1024) <= DWS2 : ({2'b00, off2_4[31:2]} + {22'd0, dw0[9:0]}) <= DWS2;
  wire hit0 = fmt[0] ? hit0_4 : hit0_3;
  wire in_3 = (hit0_3 && e0_3) || (hit2_3 && !hit0_3 && e2_3);
  wire in_4 = (hit0_4 && e0_4) || (hit2_4 && !hit0_4 && e2_4);
  wire in_bar = fmt[0] ? in_4 : in_3;
  // the offset in the BAR hit (either when the access is in no BAR: unused then)
  wire [31:0] off = fmt[0] ? (hit0_4 ? off0_4 : off2_4) : (hit0_3 ? off0_3 : off2_3);

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
  // class and kind for an access in a BAR and for one outside, side by side,
  // then picked by in_bar (timing: the BAR check is the deepest input); every
  // input is an argument (a simulator re-evaluates a function call when its
  // arguments change, not the module signals it reads)
  wire zero_len = (ldw == 11'd1 && fbe == 4'd0);
  function [4:0] cls_kind(input inb, input mwr, input mrd, input npo, input msg, input cpl,
                          input pois, input beok, input rdok, input zero);  // {class, kind}
    begin
      cls_kind[1:0] = K_UR;
      if (mwr) begin
        if (pois || !inb) cls_kind[4:2] = C_DROP_UR;
        else if (!beok) cls_kind[4:2] = C_BAD;  // illegal byte enables
        else if (zero) cls_kind[4:2] = C_NOP;   // zero-length write
        else cls_kind[4:2] = C_WR;
      end else if (mrd) begin
        cls_kind[4:2] = C_NP;
        if (!pois && inb && rdok && beok) cls_kind[1:0] = zero ? K_ZERO : K_READ;
      end else if (npo) begin
        cls_kind[4:2] = C_NP;
      end else if (msg) begin
        cls_kind[4:2] = C_DROP_UR;
      end else if (cpl) begin
        cls_kind[4:2] = C_CPL;
      end else begin
        cls_kind[4:2] = C_BAD;
      end
    end
  endfunction
  wire np_other = is_mrdlk || is_io || is_cfg || is_atomic;
  wire [4:0] ck_in = cls_kind(1'b1, is_mwr, is_mrd, np_other, is_msg, is_cpl, poisoned, be_ok, rd_ok, zero_len);
  wire [4:0] ck_out = cls_kind(1'b0, is_mwr, is_mrd, np_other, is_msg, is_cpl, poisoned, be_ok, rd_ok, zero_len);
  wire [2:0] d_cls = in_bar ? ck_in[4:2] : ck_out[4:2];
  wire [1:0] d_kind = in_bar ? ck_in[1:0] : ck_out[1:0];
  reg [1:0]  d_bar;
  reg [31:0] d_addr;
  reg [3:0]  d_len;
  reg [6:0]  d_la;
  reg [11:0] d_bc;
  reg        d_locked;
  always @(*) begin
    d_bar = hit0 ? 2'd0 : 2'd2;   // (only used when the access is in a BAR)
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
    if (!is_mwr && !is_mrd && is_mrdlk) d_locked = 1'b1;
  end


  // ---- the sop beat's part in the MMIO write chunker, computed here (timing:
  // the chunker then starts from the FIFO's output and its own registers) ----
  // payload DWs of the beat and of the next one, their strobes at their
  // positions in the 16-DW block, where the beat ends, whether it emits a
  // chunk and whether a flush follows (as for the beats after it, below)
  wire [3:0]  d_pos = fmt[0] ? dw3[5:2] : dw2[5:2];
  wire [3:0]  d_n0 = !fmt[1] ? 4'd0 : (ldw >= 11'd8) ? 4'd8 : ldw[3:0];
  wire        d_le8 = (ldw <= 11'd8);
  wire [3:0]  d_n1 = (ldw >= 11'd16) ? 4'd8 : (ldw > 11'd8) ? {1'b0, ldw[2:0]} : 4'd0;
  wire        d_le16 = (ldw <= 11'd16);
  reg  [31:0] d_bstrb;
  reg  [63:0] d_rs;
  integer di;
  reg [3:0] dk;
  always @(*) begin
    for (di = 0; di < 8; di = di + 1) begin
      if (di >= d_n0) d_bstrb[di*4+:4] = 4'd0;
      else if (di == 0) d_bstrb[di*4+:4] = fbe;
      else if (d_le8 && di[10:0] == ldw - 11'd1) d_bstrb[di*4+:4] = lbe;
      else d_bstrb[di*4+:4] = 4'hF;
    end
    for (di = 0; di < 16; di = di + 1) begin
      dk = di[3:0] - d_pos;
      d_rs[di*4+:4] = (dk < 4'd8) ? d_bstrb[dk[2:0]*4+:4] : 4'd0;
    end
  end
  wire [4:0]  d_fill = {1'b0, d_pos} + {1'b0, d_n0};
  wire        d_wr_last = rx_tlp_eop || d_le8;
  wire        d_emit = (d_fill >= 5'd16) || d_wr_last;
  wire        d_flush = d_wr_last && (d_fill > 5'd16);
  localparam integer BEAT_W = 11 + 4 + 1 + 4 + 1 + 4 + 64 + 1 + 1 + 4;
  wire [BEAT_W-1:0] d_beat = {ldw, d_n0, d_le8, d_n1, d_le16, d_pos, d_rs, d_emit, d_flush, d_fill[3:0]};

  // ---- input FIFO (2 beats; rx_tlp_ready = not full): the beat and its
  // decode results (class, BAR, non-posted request fields, write block,
  // chunker values) -------------------------------------------------------------
  localparam integer SIDE_W = 3 + 2 + 2 + 32 + 4 + 7 + 12 + 1 + 26 + BEAT_W;
  wire [SIDE_W-1:0] d_side = {d_cls, d_kind, d_bar, d_addr, d_len, d_la, d_bc, d_locked, off[31:6], d_beat};
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
  wire [10:0] i_ldw;
  wire [3:0]  i_n0, i_n1, i_pos, i_fill0;
  wire        i_le8, i_le16, i_emit0, i_flush0;
  wire [63:0] i_rs0;
  assign {i_cls, i_kind, i_bar, i_np_addr, i_np_len, i_np_la, i_np_bc, i_np_locked, i_blk,
          i_ldw, i_n0, i_le8, i_n1, i_le16, i_pos, i_rs0, i_emit0, i_flush0, i_fill0} = i_side;
  // fields of the FIFO head's header that the data path needs
  wire [31:0] h0 = i_hdr[31:0];
  wire [31:0] h1 = i_hdr[63:32];
  wire        i_has_data = h0[30];
  wire [3:0]  i_lbe = h1[7:4];
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
  reg [3:0]  r_n;        // payload DWs of this beat (after the sop beat of a write: min(rem, 8))
  reg        r_le8;      // rem <= 8 (idem)
  reg        bad_frame;  // framing error seen in this TLP

  // beat bookkeeping: this beat's payload DWs and their expected dw_en
  wire [10:0] rem_now = (state == S_IDLE) ? i_ldw : rem;
  wire has_payload = (state == S_IDLE) ? i_has_data : 1'b1;
  wire [3:0] n_now = (state == S_IDLE) ? i_n0 : r_n;
  wire le8_now = (state == S_IDLE) ? i_le8 : r_le8;   // rem_now <= 8
  wire [7:0] exp_en = (n_now == 4'd8) ? 8'hFF : ((8'd1 << n_now[2:0]) - 8'd1);
  wire exp_last = !has_payload || le8_now;
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
  // a beat after the sop beat: its DWs' positions in the block (r_pos_m),
  // their strobes (wr_lbe on the write's last DW), where it ends, from
  // registers only (the sop beat's come with it from the FIFO)
  reg [15:0] r_pos_m;
  reg [63:0] r_rs;
  integer bi;
  reg [3:0] bk;
  always @(*) begin
    for (bi = 0; bi < 16; bi = bi + 1) begin
      bk = bi[3:0] - wr_pos;
      r_pos_m[bi] = ({1'b0, bk} < {1'b0, r_n});
      r_rs[bi*4+:4] = !r_pos_m[bi] ? 4'd0 : (r_le8 && bk == r_n - 4'd1) ? wr_lbe : 4'hF;
    end
  end
  wire [4:0] r_fill = {1'b0, wr_pos} + {1'b0, r_n};
  // rotate the beat's DWs to their block positions (16 positions, wrapping)
  wire [63:0] rot_strb = wr_sop ? i_rs0 : r_rs;
  reg [511:0] rot_data;
  reg [15:0]  rot_cur;     // position belongs to the block being filled (not wrapped)
  integer rj;
  reg [3:0] rk;
  always @(*) begin
    for (rj = 0; rj < 16; rj = rj + 1) begin
      rk = rj[3:0] - pos_now;
      rot_cur[rj] = (rj[3:0] >= pos_now);
      if (rk < 4'd8) rot_data[rj*32+:32] = i_data[rk[2:0]*32+:32];
      else rot_data[rj*32+:32] = 32'd0;
    end
  end
  reg [511:0] cur_data, wrap_data;
  reg [63:0]  cur_strb, wrap_strb;
  integer cj;
  always @(*) begin
    for (cj = 0; cj < 16; cj = cj + 1) begin
      if (rot_cur[cj]) begin
        cur_data[cj*32+:32] = wr_sop ? rot_data[cj*32+:32] :
            (r_pos_m[cj] ? rot_data[cj*32+:32] : acc_data[cj*32+:32]);
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
  wire [3:0] fill = wr_sop ? i_fill0 : r_fill[3:0];   // where the beat ends
  wire wr_last = i_eop || le8_now;   // last beat that carries data
  wire wr_emit = wr_sop ? i_emit0 : (r_fill[4] || wr_last);
  wire wr_flush = wr_sop ? i_flush0 : (wr_last && r_fill > 5'd16);
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
      r_n <= 4'd0;
      r_le8 <= 1'b0;
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
        // the next beat's payload DWs (a write's beats before its last are full)
        if (state == S_IDLE) begin
          r_n <= i_n1;
          r_le8 <= i_le16;
        end else begin
          r_n <= (rem >= 11'd16) ? 4'd8 : (rem > 11'd8) ? {1'b0, rem[2:0]} : 4'd0;
          r_le8 <= (rem <= 11'd16);
        end
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
          wr_pos <= fill;
          if (wr_emit) begin
            mmio_wr_valid <= 1'b1;
            mmio_wr_bar <= (state == S_IDLE) ? i_bar : wr_bar;
            mmio_wr_addr <= {((state == S_IDLE) ? i_blk : wr_blk), 6'd0};
            mmio_wr_data <= cur_data;
            mmio_wr_strb <= cur_strb;
            wr_blk <= ((state == S_IDLE) ? i_blk : wr_blk) + 26'd1;
            acc_data <= wrap_data;
            acc_strb <= wrap_strb;
            if (wr_flush) state <= S_FLUSH;
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
  wire unused_rx = &{1'b0, i_count, p_count, dw3[1:0], dw0[23:15], dw0[13:10], dw1[31:8], h0[31], h0[29:24],
                     h0[17:14], h0[11:0], off[1:0], mem_bc[12], h1[3:0],
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
