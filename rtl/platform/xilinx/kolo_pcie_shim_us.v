`default_nettype none
// kolo_pcie_shim_us - adapts kolo_pcie_ep to the Xilinx UltraScale /
// UltraScale+ PCIe block's descriptor interfaces (PG156/PG213), 256 bit,
// Dword-aligned mode, straddle off, client tags (docs/pcie-shims.md). Vendor
// IP is not instantiated here.
//
// Receive: CQ (requests from the host, 4-DW descriptor, byte enables in
// tuser) carries the payload right after the descriptor, as after a 4-DW TLP
// header: the descriptor of a packet's first beat is rewritten in place into
// that header and kolo_pcie_shim_rx makes the core's beats (rx_tlp_*). The
// BAR id of a memory request (0 or 2) moves its address into the core's
// window (as the other shims do with BAR hits). RC (completions for the
// core's reads, 3-DW descriptor) has a path of its own to the core's
// completion input (rx_cpl_*): the descriptor becomes a 3-DW Cpl/CplD
// header (the requester id becomes EP_REQ_ID, the id the core is given; the
// block matches its own) and the payload moves down by the 3 descriptor DWs
// (a carry of 5 DWs; a TLP whose last input beat leaves DWs in the carry
// takes one more cycle). Completions thus never wait behind host requests
// that the user side holds (docs/ni.md 6, "Ordering"); the order between CQ
// and RC is the block's.
// Non-posted flow control: pcie_cq_np_req is the core's np_credit, one pulse
// per request the core can queue (the block counts them, up to 32), so that
// a host read waiting for the completer never holds back posted writes.
// Transmit: the core's TLPs go through kolo_pcie_shim_tx (a 3-DW request
// header made 4-DW first, so that the payload follows the 4-DW RQ
// descriptor); the first beat's header becomes the RQ descriptor (MRd, MWr;
// byte enables into s_axis_rq_tuser) or the CC descriptor (completions),
// requester/completer id enable 0: the block fills in its own id.
// Ordering on transmit: the block may let a completion on CC pass a posted
// request on RQ (PG156 "Maintaining Transaction Order"). Each RQ request
// carries a sequence number in s_axis_rq_tuser[27:24]: a posted one the
// count of posted requests before it, a non-posted one the last posted
// one's. The block reports a request's number on pcie_rq_seq_num/_vld once
// no completion can pass it; a posted request is confirmed by the report of
// the number expected next. A completion (its first beat) and an MSI wait
// until every posted request sent before them is confirmed, so neither
// passes DMA data (D2a). The board must connect pcie_rq_seq_num and _vld
// (tied low, completions and MSIs would wait for ever). The numbers are 4
// bits, so at most SEQ_WINDOW = 16 posted requests are unconfirmed at a
// time: a posted request waits on RQ (tvalid low) while 16 are, so the
// numbers of the unconfirmed ones are all different and each report names
// one of them (a guard fails the simulation if a 17th is sent).
// MSI: cfg_interrupt_msi_int one-hot for one cycle, then wait for
// cfg_interrupt_msi_sent or _fail (either ends it).
// Completion space: CPL_HDR_CREDITS / CPL_DATA_CREDITS (the block's receive
// buffer for completions, from its customization) go to the core as
// ep_cfg_cpl_hdr / _data; the core keeps its reads within them.
// Handshakes: AXI4-Stream valid/ready (the block's 22-bit and 4-bit readys:
// all bits driven alike / bit 0 used); the ep_* ports are kolo_pcie_ep's.
`include "kolo_assert.vh"
module kolo_pcie_shim_us #(
    parameter BAR0_SIZE_LOG2 = 17,
    parameter BAR2_SIZE_LOG2 = 16,
    parameter [31:0] BAR0_BASE = 32'h8000_0000,
    parameter [31:0] BAR2_BASE = 32'hC000_0000,
    parameter [15:0] EP_REQ_ID = 16'h0000,
    parameter [63:0] MSI_ADDR = 64'hFFFF_FFFF_FFFF_FFF0,
    // the block's completion buffer (PG156: 64 headers, 15872 bytes; PG213
    // UltraScale+: 128 headers, 32768 bytes), in data credits of 16 bytes
    parameter CPL_HDR_CREDITS = 64,
    parameter CPL_DATA_CREDITS = 992,
    parameter BUG_NO_SEQ_THROTTLE = 0  // tests only: 1 = no sequence-number window (a planted bug tb_pcie_shim must catch)
) (
    input  wire         clk,
    input  wire         rst,
    // completer request (host -> user)
    input  wire         m_axis_cq_tvalid,
    output wire [21:0]  m_axis_cq_tready,
    input  wire [255:0] m_axis_cq_tdata,
    input  wire [84:0]  m_axis_cq_tuser,
    input  wire         m_axis_cq_tlast,
    input  wire [7:0]   m_axis_cq_tkeep,
    output wire         pcie_cq_np_req,
    // requester completion (host -> user)
    input  wire         m_axis_rc_tvalid,
    output wire [21:0]  m_axis_rc_tready,
    input  wire [255:0] m_axis_rc_tdata,
    input  wire [74:0]  m_axis_rc_tuser,
    input  wire         m_axis_rc_tlast,
    input  wire [7:0]   m_axis_rc_tkeep,
    // completer completion (user -> host)
    output wire         s_axis_cc_tvalid,
    input  wire [3:0]   s_axis_cc_tready,
    output wire [255:0] s_axis_cc_tdata,
    output wire [32:0]  s_axis_cc_tuser,
    output wire         s_axis_cc_tlast,
    output wire [7:0]   s_axis_cc_tkeep,
    // requester request (user -> host)
    output wire         s_axis_rq_tvalid,
    input  wire [3:0]   s_axis_rq_tready,
    output wire [255:0] s_axis_rq_tdata,
    output wire [59:0]  s_axis_rq_tuser,
    output wire         s_axis_rq_tlast,
    output wire [7:0]   s_axis_rq_tkeep,
    input  wire [3:0]   pcie_rq_seq_num,
    input  wire         pcie_rq_seq_num_vld,
    // configuration and MSI
    input  wire [2:0]   cfg_max_payload,
    input  wire [2:0]   cfg_max_read_req,
    input  wire [15:0]  cfg_function_status,
    input  wire [1:0]   cfg_interrupt_msi_enable,
    output reg  [31:0]  cfg_interrupt_msi_int,
    input  wire         cfg_interrupt_msi_sent,
    input  wire         cfg_interrupt_msi_fail,
    // kolo_pcie_ep TLP streams and configuration
    output wire         ep_rx_tlp_valid,
    input  wire         ep_rx_tlp_ready,
    output wire [127:0] ep_rx_tlp_hdr,
    output wire [255:0] ep_rx_tlp_data,
    output wire         ep_rx_tlp_sop,
    output wire         ep_rx_tlp_eop,
    output wire [7:0]   ep_rx_tlp_dw_en,
    output reg          ep_rx_cpl_valid,
    input  wire         ep_rx_cpl_ready,
    output reg  [127:0] ep_rx_cpl_hdr,
    output reg  [255:0] ep_rx_cpl_data,
    output reg          ep_rx_cpl_sop,
    output reg          ep_rx_cpl_eop,
    output reg  [7:0]   ep_rx_cpl_dw_en,
    input  wire         ep_np_credit,
    input  wire         ep_tx_tlp_valid,
    output wire         ep_tx_tlp_ready,
    input  wire [127:0] ep_tx_tlp_hdr,
    input  wire [255:0] ep_tx_tlp_data,
    input  wire         ep_tx_tlp_sop,
    input  wire         ep_tx_tlp_eop,
    input  wire [7:0]   ep_tx_tlp_dw_en,
    output wire [63:0]  ep_cfg_bar0,
    output wire [63:0]  ep_cfg_bar2,
    output wire [15:0]  ep_cfg_req_id,
    output wire [2:0]   ep_cfg_max_payload,
    output wire [2:0]   ep_cfg_max_read_req,
    output wire         ep_cfg_bus_master,
    output wire [63:0]  ep_cfg_msi_addr,
    output wire [15:0]  ep_cfg_msi_data,
    output wire         ep_cfg_msi_en,
    output wire [11:0]  ep_cfg_cpl_hdr,
    output wire [15:0]  ep_cfg_cpl_data
);
  generate
    if (CPL_HDR_CREDITS < 2 || CPL_HDR_CREDITS > 4095 || CPL_DATA_CREDITS < 10 || CPL_DATA_CREDITS > 65535)
    begin : g_bad_cpl
      kolo_pcie_shim_us_PARAMETER_ERROR_completion_credits_out_of_range u_bad ();
    end
  endgenerate
  function [3:0] last_dw(input [7:0] keep);  // highest DW with tkeep set
    integer i;
    begin
      last_dw = 4'd0;
      for (i = 0; i < 8; i = i + 1)
        if (keep[i]) last_dw = i[3:0];
    end
  endfunction

  // ---- receive: CQ, descriptors into headers -------------------------------------------
  reg  cq_busy_q;   // inside a CQ packet
  wire cq_ready;
  wire cq_fire = m_axis_cq_tvalid && cq_ready;
  assign m_axis_cq_tready = {22{cq_ready}};
  assign pcie_cq_np_req = ep_np_credit;
  always @(posedge clk) begin
    if (rst) cq_busy_q <= 1'b0;
    else if (cq_fire) cq_busy_q <= !m_axis_cq_tlast;
  end

  // CQ descriptor -> 4-DW request header
  wire [127:0] cq = m_axis_cq_tdata[127:0];
  wire [3:0]   cq_type = cq[78:75];
  wire [10:0]  cq_dwc = cq[74:64];
  wire [2:0]   cq_attr = cq[126:124];
  wire         cq_data = cq_type == 4'b0001 || cq_type == 4'b0011 || cq_type == 4'b0100 || cq_type == 4'b0101 ||
                         cq_type == 4'b0110 ||
                         cq_type == 4'b1010 || cq_type == 4'b1011 || (cq_type[3:2] == 2'b11 && cq_dwc != 11'd0);
  reg  [4:0]   cq_tlp_type;
  always @* begin
    case (cq_type)
      4'b0000, 4'b0001: cq_tlp_type = 5'b00000;               // MRd, MWr
      4'b0111:          cq_tlp_type = 5'b00001;               // MRdLk
      4'b0010, 4'b0011: cq_tlp_type = 5'b00010;               // IORd, IOWr
      4'b0100:          cq_tlp_type = 5'b01100;               // FetchAdd
      4'b0101:          cq_tlp_type = 5'b01101;               // Swap
      4'b0110:          cq_tlp_type = 5'b01110;               // CAS
      4'b1000, 4'b1010: cq_tlp_type = 5'b00100;               // CfgRd0, CfgWr0
      4'b1001, 4'b1011: cq_tlp_type = 5'b00101;               // CfgRd1, CfgWr1
      4'b1100, 4'b1101, 4'b1110: cq_tlp_type = {2'b10, cq[114:112]};  // messages: routing
      default:          cq_tlp_type = 5'b00011;               // reserved: the core drops it
    endcase
  end
  wire         cq_msg = cq_type[3:2] == 2'b11;
  wire [127:0] cq_hdr = {
      cq[31:2], 2'b00,                                          // DW3: address 31:0
      cq[63:32],                                                // DW2: address 63:32
      cq[95:80], cq[103:96],
      cq_msg ? cq[111:104] : m_axis_cq_tuser[7:0],              // DW1: requester id, tag, BEs / message code
      1'b0, cq_data, 1'b1, cq_tlp_type, 1'b0, cq[123:121], 1'b0, cq_attr[2], 2'b00, 1'b0, 1'b0,
      cq_attr[1:0], cq_msg ? 2'b00 : cq[1:0], cq_dwc[9:0]};     // DW0
  wire [1:0]   cq_bar = (cq_type == 4'b0000 || cq_type == 4'b0001 || cq_type == 4'b0111) ?
                        {cq[114:112] == 3'd2, cq[114:112] == 3'd0} : 2'b00;

  // CQ -> the core's request stream
  kolo_pcie_shim_rx #(
      .LANES(8), .QWORD_ALIGN(0), .PAYLOAD_SWAP(0),
      .BAR0_SIZE_LOG2(BAR0_SIZE_LOG2), .BAR2_SIZE_LOG2(BAR2_SIZE_LOG2),
      .BAR0_BASE(BAR0_BASE), .BAR2_BASE(BAR2_BASE)
  ) u_rx (
      .clk(clk), .rst(rst),
      .in_valid(m_axis_cq_tvalid), .in_ready(cq_ready),
      .in_data(cq_busy_q ? m_axis_cq_tdata : {m_axis_cq_tdata[255:128], cq_hdr}),
      .in_sof(!cq_busy_q), .in_eof(m_axis_cq_tlast),
      .in_start(4'd0), .in_end(m_axis_cq_tlast ? last_dw(m_axis_cq_tkeep) : 4'd7),
      .in_bar(cq_bar),
      .rx_tlp_valid(ep_rx_tlp_valid), .rx_tlp_ready(ep_rx_tlp_ready), .rx_tlp_hdr(ep_rx_tlp_hdr),
      .rx_tlp_data(ep_rx_tlp_data), .rx_tlp_sop(ep_rx_tlp_sop), .rx_tlp_eop(ep_rx_tlp_eop),
      .rx_tlp_dw_en(ep_rx_tlp_dw_en)
  );

  // ---- receive: RC -> the core's completion input ---------------------------------------
  // RC descriptor -> 3-DW completion header
  wire [95:0]  rc = m_axis_rc_tdata[95:0];
  wire [10:0]  rc_dwc = rc[42:32];
  wire [95:0]  rc_hdr = {
      EP_REQ_ID, rc[71:64], 1'b0, rc[6:0],                      // DW2: requester id, tag, lower address
      rc[87:72], rc[45:43], 1'b0, rc[27:16],                    // DW1: completer id, status, byte count
      1'b0, rc_dwc != 11'd0, 1'b0, 4'b0101, rc[29], 1'b0, rc[91:89], 1'b0, rc[94], 2'b00, 1'b0,
      rc[46], rc[93:92], 2'b00, rc_dwc[9:0]};                   // DW0: Cpl/CplD (Lk), TC, attr, EP, Length
  // payload: output beat j is input DWs 3+8j .. 10+8j (the 5 DWs carried
  // from the previous input beat, then DWs 0..2 of this one)
  reg         rc_busy_q;     // inside an RC packet
  reg         rc_drop_q;     // its payload is all out: the beats up to tlast are dropped
  reg         rc_first_q;    // the next output beat is the TLP's first
  reg         rc_flush_q;    // the carry holds the TLP's last output beat
  reg [10:0]  rc_rem_q;      // payload DWs not yet in an output beat
  reg [159:0] rc_carry_q;    // DWs 3..7 of the previous input beat
  wire rc_out_free = !ep_rx_cpl_valid || ep_rx_cpl_ready;
  wire rc_ready = rc_out_free && !rc_flush_q;
  wire rc_fire = m_axis_rc_tvalid && rc_ready;
  assign m_axis_rc_tready = {22{rc_ready}};
  function [7:0] dw_mask(input [10:0] n);  // the lowest min(n, 8) DWs
    dw_mask = (n >= 11'd8) ? 8'hFF : (8'hFF >> (4'd8 - n[3:0]));
  endfunction
  always @(posedge clk) begin
    if (rst) begin
      rc_busy_q <= 1'b0;
      rc_drop_q <= 1'b0;
      rc_first_q <= 1'b0;
      rc_flush_q <= 1'b0;
      rc_rem_q <= 11'd0;
      rc_carry_q <= 160'd0;
      ep_rx_cpl_valid <= 1'b0;
      ep_rx_cpl_hdr <= 128'd0;
      ep_rx_cpl_data <= 256'd0;
      ep_rx_cpl_sop <= 1'b0;
      ep_rx_cpl_eop <= 1'b0;
      ep_rx_cpl_dw_en <= 8'd0;
    end else begin
      if (ep_rx_cpl_valid && ep_rx_cpl_ready) ep_rx_cpl_valid <= 1'b0;
      if (rc_flush_q && rc_out_free) begin
        ep_rx_cpl_valid <= 1'b1;
        ep_rx_cpl_data <= {96'd0, rc_carry_q};
        ep_rx_cpl_sop <= rc_first_q;
        ep_rx_cpl_eop <= 1'b1;
        ep_rx_cpl_dw_en <= dw_mask((rc_rem_q > 11'd5) ? 11'd5 : rc_rem_q);
        rc_first_q <= 1'b0;
        rc_rem_q <= 11'd0;
        rc_flush_q <= 1'b0;
      end
      if (rc_fire) begin
        rc_busy_q <= !m_axis_rc_tlast;
        rc_carry_q <= m_axis_rc_tdata[255:96];
        if (!rc_busy_q) begin
          // first beat: the header, payload DWs in lanes 3..7
          ep_rx_cpl_hdr <= {32'd0, rc_hdr};
          rc_first_q <= 1'b1;
          rc_rem_q <= rc_dwc;
          rc_drop_q <= 1'b0;
          if (rc_dwc <= 11'd5 || m_axis_rc_tlast) begin
            // all of it (or all there is) in this beat
            ep_rx_cpl_valid <= 1'b1;
            ep_rx_cpl_data <= {96'd0, m_axis_rc_tdata[255:96]};
            ep_rx_cpl_sop <= 1'b1;
            ep_rx_cpl_eop <= 1'b1;
            ep_rx_cpl_dw_en <= dw_mask((rc_dwc > 11'd5) ? 11'd5 : rc_dwc);
            rc_first_q <= 1'b0;
            rc_rem_q <= 11'd0;
            rc_drop_q <= 1'b1;
          end
        end else if (!rc_drop_q) begin
          // a later beat: the carried DWs, then DWs 0..2 of this one
          ep_rx_cpl_valid <= 1'b1;
          ep_rx_cpl_data <= {m_axis_rc_tdata[95:0], rc_carry_q};
          ep_rx_cpl_sop <= rc_first_q;
          ep_rx_cpl_eop <= rc_rem_q <= 11'd8;
          ep_rx_cpl_dw_en <= dw_mask(rc_rem_q);
          rc_first_q <= 1'b0;
          rc_rem_q <= (rc_rem_q > 11'd8) ? rc_rem_q - 11'd8 : 11'd0;
          if (rc_rem_q <= 11'd8) rc_drop_q <= 1'b1;
          else if (m_axis_rc_tlast) rc_flush_q <= 1'b1;  // the rest is in the carry
        end
      end
    end
  end

  // ---- transmit ---------------------------------------------------------------------------
  // a request with a 3-DW header: make it 4-DW (address 63:32 = 0)
  wire         t_req3 = ep_tx_tlp_sop && !ep_tx_tlp_hdr[31] && !ep_tx_tlp_hdr[29] &&
                        ep_tx_tlp_hdr[28:24] == 5'd0;
  wire [127:0] t_hdr = t_req3 ? {ep_tx_tlp_hdr[95:64], 32'd0, ep_tx_tlp_hdr[63:30], 1'b1, ep_tx_tlp_hdr[28:0]}
                              : ep_tx_tlp_hdr;
  wire         o_valid, o_sop, o_eop;
  wire [255:0] o_data;
  wire [3:0]   o_end;
  wire [31:0]  msi_word;
  wire         msi_valid;
  reg          msi_wait_q;
  wire         msi_done = msi_wait_q && (cfg_interrupt_msi_sent || cfg_interrupt_msi_fail);
  reg          cpl_q;        // the TLP on the output is a completion (CC), else a request (RQ)
  reg  [7:0]   be_q;
  wire [127:0] h = o_data[127:0];
  wire         o_cpl = o_sop ? (h[28:25] == 4'b0101) : cpl_q;
  // posted requests sent on RQ and not yet confirmed by the block
  reg  [3:0]   p_sent_q;     // sequence number of the next posted request
  reg  [3:0]   p_conf_q;     // sequence number confirmed next
  reg  [5:0]   p_out_q;      // posted requests sent, not yet confirmed
  localparam [5:0] SEQ_WINDOW = 6'd16;                  // 4-bit sequence numbers
  wire         o_posted = h[30];                    // a request with data: MWr
  wire         cc_go = !o_sop || p_out_q == 6'd0;   // a completion starts only after them
  wire         rq_go = !o_sop || !o_posted || p_out_q < SEQ_WINDOW || BUG_NO_SEQ_THROTTLE != 0;
  wire         o_ready = o_cpl ? (s_axis_cc_tready[0] && cc_go) : (s_axis_rq_tready[0] && rq_go);
  kolo_pcie_shim_tx #(.LANES(8), .QWORD_ALIGN(0), .PAYLOAD_SWAP(0), .MSI_ADDR(MSI_ADDR)) u_tx (
      .clk(clk), .rst(rst),
      .tx_tlp_valid(ep_tx_tlp_valid), .tx_tlp_ready(ep_tx_tlp_ready), .tx_tlp_hdr(t_hdr),
      .tx_tlp_data(ep_tx_tlp_data), .tx_tlp_sop(ep_tx_tlp_sop), .tx_tlp_eop(ep_tx_tlp_eop),
      .tx_tlp_dw_en(ep_tx_tlp_dw_en),
      .out_valid(o_valid), .out_ready(o_ready), .out_data(o_data),
      .out_sop(o_sop), .out_eop(o_eop), .out_end(o_end),
      .msi_valid(msi_valid), .msi_ready(msi_done), .msi_data(msi_word)
  );
  wire [10:0] h_dwc = h[30] ? {h[9:0] == 10'd0, h[9:0]} : (h[28:24] == 5'd0 ? {h[9:0] == 10'd0, h[9:0]} : 11'd0);
  // RQ descriptor from a 4-DW MRd/MWr header
  wire [127:0] rq_desc = {
      1'b0, h[18], h[13:12], h[22:20], 1'b0, 16'd0,           // force ECRC, attr, TC, req id enable, completer id
      h[47:40], h[63:48],                                      // tag, requester id
      1'b0, 3'b000, h[30], h_dwc,                              // poisoned, request type (MRd 0000, MWr 0001), dword count
      h[95:64], h[127:98], 2'b00};                             // address, AT
  // CC descriptor from a 3-DW completion header
  wire [95:0] cc_desc = {
      1'b0, h[18], h[13:12], h[22:20], 1'b0, 8'd0, 8'd0,       // force ECRC, attr, TC, completer id enable, bus, function
      h[79:72], h[95:80],                                      // tag, requester id
      1'b0, h[14], h[47:45], h_dwc,                            // poisoned, status, dword count
      2'b00, h[24], h[43:32] == 12'd0, h[43:32],               // locked, byte count (0 = 4096)
      6'd0, 2'b00, 1'b0, h[70:64]};                            // AT, lower address
  wire [7:0] o_keep = o_eop ? (8'hFF >> (4'd7 - o_end)) : 8'hFF;
  assign s_axis_rq_tvalid = o_valid && !o_cpl && rq_go;
  assign s_axis_rq_tdata = o_sop ? {o_data[255:128], rq_desc} : o_data;
  assign s_axis_rq_tlast = o_eop;
  assign s_axis_rq_tkeep = o_keep;
  // sequence number (27:24), last BE, first BE
  assign s_axis_rq_tuser = {32'd0, o_posted ? p_sent_q : p_sent_q - 4'd1, 16'd0, o_sop ? h[39:32] : be_q};
  assign s_axis_cc_tvalid = o_valid && o_cpl && cc_go;
  assign s_axis_cc_tdata = o_sop ? {o_data[255:96], cc_desc} : o_data;
  assign s_axis_cc_tlast = o_eop;
  assign s_axis_cc_tkeep = o_keep;
  assign s_axis_cc_tuser = 33'd0;
  always @(posedge clk) begin
    if (rst) begin
      cpl_q <= 1'b0;
      be_q <= 8'd0;
    end else if (o_valid && o_ready && o_sop) begin
      cpl_q <= o_cpl;
      be_q <= h[39:32];
    end
  end
  wire p_send = o_valid && o_ready && o_sop && !o_cpl && o_posted;
  wire p_conf = pcie_rq_seq_num_vld && pcie_rq_seq_num == p_conf_q && p_out_q != 6'd0;
  always @(posedge clk) begin
    if (rst) begin
      p_sent_q <= 4'd0;
      p_conf_q <= 4'd0;
      p_out_q <= 6'd0;
    end else begin
      if (p_send) p_sent_q <= p_sent_q + 4'd1;
      if (p_conf) p_conf_q <= p_conf_q + 4'd1;
      p_out_q <= p_out_q + {5'd0, p_send} - {5'd0, p_conf};
    end
  end
`ifndef SYNTHESIS
  // a posted request is sent only while fewer than SEQ_WINDOW are unconfirmed
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(p_send && p_out_q >= SEQ_WINDOW));
`endif

  // MSI: a one-cycle pulse, then wait for sent or fail
  always @(posedge clk) begin
    if (rst) begin
      cfg_interrupt_msi_int <= 32'd0;
      msi_wait_q <= 1'b0;
    end else begin
      cfg_interrupt_msi_int <= 32'd0;
      if (msi_done) msi_wait_q <= 1'b0;
      else if (msi_valid && !msi_wait_q && p_out_q == 6'd0) begin  // after the DMA data
        cfg_interrupt_msi_int <= 32'd1 << msi_word[4:0];
        msi_wait_q <= 1'b1;
      end
    end
  end

  // ---- configuration ----------------------------------------------------------------------
  assign ep_cfg_bar0 = {32'd0, BAR0_BASE};
  assign ep_cfg_bar2 = {32'd0, BAR2_BASE};
  assign ep_cfg_req_id = EP_REQ_ID;
  assign ep_cfg_max_payload = cfg_max_payload;
  assign ep_cfg_max_read_req = cfg_max_read_req;
  assign ep_cfg_bus_master = cfg_function_status[2];
  assign ep_cfg_msi_addr = MSI_ADDR;
  assign ep_cfg_msi_data = 16'd0;
  assign ep_cfg_msi_en = cfg_interrupt_msi_enable[0];
  assign ep_cfg_cpl_hdr = CPL_HDR_CREDITS[11:0];
  assign ep_cfg_cpl_data = CPL_DATA_CREDITS[15:0];
  wire unused = &{1'b0, m_axis_cq_tuser[84:8], m_axis_rc_tuser, m_axis_rc_tkeep, rc[95], rc[88], rc[63:47], rc[31:30],
                  rc[28], rc[15:7], cq[79], cq[127], cq[120:115], cfg_function_status[15:3],
                  cfg_function_status[1:0], cfg_interrupt_msi_enable[1], msi_word[31:5], s_axis_cc_tready[3:1],
                  s_axis_rq_tready[3:1], h[97:96], h[31], h[29], h[23], h[19], h[17:15], h[11:10]};
endmodule
`default_nettype wire
