`default_nettype none
// kolo_pcie_shim_us - adapts kolo_pcie_ep to the Xilinx UltraScale /
// UltraScale+ PCIe block's descriptor interfaces (PG156/PG213), 256 bit,
// Dword-aligned mode, straddle off, client tags (docs/pcie-shims.md). Vendor
// IP is not instantiated here.
//
// Receive: CQ (requests from the host, 4-DW descriptor, byte enables in
// tuser) and RC (completions for the core's reads, 3-DW descriptor) carry the
// payload right after the descriptor, as after a 4-DW / 3-DW TLP header. The
// descriptor of a packet's first beat is rewritten in place into that TLP
// header (RC: the requester id becomes EP_REQ_ID, the id the core is given;
// the block matches its own), and the two streams share one
// kolo_pcie_shim_rx, a whole packet at a time, alternating when both wait.
// The BAR id of a memory request (0 or 2) moves its address into the core's
// window (as the other shims do with BAR hits).
// Transmit: the core's TLPs go through kolo_pcie_shim_tx (a 3-DW request
// header made 4-DW first, so that the payload follows the 4-DW RQ
// descriptor); the first beat's header becomes the RQ descriptor (MRd, MWr;
// byte enables into s_axis_rq_tuser) or the CC descriptor (completions),
// requester/completer id enable 0: the block fills in its own id.
// MSI: cfg_interrupt_msi_int one-hot for one cycle, then wait for
// cfg_interrupt_msi_sent or _fail (either ends it).
// Handshakes: AXI4-Stream valid/ready (the block's 22-bit and 4-bit readys:
// all bits driven alike / bit 0 used); the ep_* ports are kolo_pcie_ep's.
module kolo_pcie_shim_us #(
    parameter BAR0_SIZE_LOG2 = 17,
    parameter BAR2_SIZE_LOG2 = 16,
    parameter [31:0] BAR0_BASE = 32'h8000_0000,
    parameter [31:0] BAR2_BASE = 32'hC000_0000,
    parameter [15:0] EP_REQ_ID = 16'h0000,
    parameter [63:0] MSI_ADDR = 64'hFFFF_FFFF_FFFF_FFF0
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
    output wire         ep_cfg_msi_en
);
  function [3:0] last_dw(input [7:0] keep);  // highest DW with tkeep set
    integer i;
    begin
      last_dw = 4'd0;
      for (i = 0; i < 8; i = i + 1)
        if (keep[i]) last_dw = i[3:0];
    end
  endfunction

  // ---- receive: CQ and RC into one stream, descriptors into headers --------------------
  reg  busy_q;      // inside a packet of the stream sel_q
  reg  sel_q;       // 0 CQ, 1 RC
  reg  last_rc_q;   // the last packet came from RC (alternate when both wait)
  wire core_ready;
  wire sel = busy_q ? sel_q : (m_axis_rc_tvalid && (!m_axis_cq_tvalid || !last_rc_q));
  wire        s_valid = sel ? m_axis_rc_tvalid : m_axis_cq_tvalid;
  wire        s_last = sel ? m_axis_rc_tlast : m_axis_cq_tlast;
  wire [7:0]  s_keep = sel ? m_axis_rc_tkeep : m_axis_cq_tkeep;
  wire        s_fire = s_valid && core_ready;
  assign m_axis_cq_tready = {22{core_ready && !sel}};
  assign m_axis_rc_tready = {22{core_ready && sel}};
  assign pcie_cq_np_req = 1'b1;
  always @(posedge clk) begin
    if (rst) begin
      busy_q <= 1'b0;
      sel_q <= 1'b0;
      last_rc_q <= 1'b0;
    end else if (s_fire) begin
      busy_q <= !s_last;
      sel_q <= sel;
      last_rc_q <= sel;
    end
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

  // RC descriptor -> 3-DW completion header
  wire [95:0]  rc = m_axis_rc_tdata[95:0];
  wire [10:0]  rc_dwc = rc[42:32];
  wire [95:0]  rc_hdr = {
      EP_REQ_ID, rc[71:64], 1'b0, rc[6:0],                      // DW2: requester id, tag, lower address
      rc[87:72], rc[45:43], 1'b0, rc[27:16],                    // DW1: completer id, status, byte count
      1'b0, rc_dwc != 11'd0, 1'b0, 4'b0101, rc[29], 1'b0, rc[91:89], 1'b0, rc[94], 2'b00, 1'b0,
      rc[46], rc[93:92], 2'b00, rc_dwc[9:0]};                   // DW0: Cpl/CplD (Lk), TC, attr, EP, Length

  wire [255:0] s_data = sel ? (busy_q ? m_axis_rc_tdata : {m_axis_rc_tdata[255:96], rc_hdr})
                            : (busy_q ? m_axis_cq_tdata : {m_axis_cq_tdata[255:128], cq_hdr});

  kolo_pcie_shim_rx #(
      .LANES(8), .QWORD_ALIGN(0), .PAYLOAD_SWAP(0),
      .BAR0_SIZE_LOG2(BAR0_SIZE_LOG2), .BAR2_SIZE_LOG2(BAR2_SIZE_LOG2),
      .BAR0_BASE(BAR0_BASE), .BAR2_BASE(BAR2_BASE)
  ) u_rx (
      .clk(clk), .rst(rst),
      .in_valid(s_valid), .in_ready(core_ready), .in_data(s_data),
      .in_sof(!busy_q), .in_eof(s_last),
      .in_start(4'd0), .in_end(s_last ? last_dw(s_keep) : 4'd7),
      .in_bar(sel ? 2'b00 : cq_bar),
      .rx_tlp_valid(ep_rx_tlp_valid), .rx_tlp_ready(ep_rx_tlp_ready), .rx_tlp_hdr(ep_rx_tlp_hdr),
      .rx_tlp_data(ep_rx_tlp_data), .rx_tlp_sop(ep_rx_tlp_sop), .rx_tlp_eop(ep_rx_tlp_eop),
      .rx_tlp_dw_en(ep_rx_tlp_dw_en)
  );

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
  wire         o_ready = o_cpl ? s_axis_cc_tready[0] : s_axis_rq_tready[0];
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
  assign s_axis_rq_tvalid = o_valid && !o_cpl;
  assign s_axis_rq_tdata = o_sop ? {o_data[255:128], rq_desc} : o_data;
  assign s_axis_rq_tlast = o_eop;
  assign s_axis_rq_tkeep = o_keep;
  assign s_axis_rq_tuser = {52'd0, o_sop ? h[39:32] : be_q};  // last BE, first BE
  assign s_axis_cc_tvalid = o_valid && o_cpl;
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

  // MSI: a one-cycle pulse, then wait for sent or fail
  always @(posedge clk) begin
    if (rst) begin
      cfg_interrupt_msi_int <= 32'd0;
      msi_wait_q <= 1'b0;
    end else begin
      cfg_interrupt_msi_int <= 32'd0;
      if (msi_done) msi_wait_q <= 1'b0;
      else if (msi_valid && !msi_wait_q) begin
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
  wire unused = &{1'b0, m_axis_cq_tuser[84:8], m_axis_rc_tuser, rc[95], rc[88], rc[63:47], rc[31:30],
                  rc[28], rc[15:7], cq[79], cq[127], cq[120:115], cfg_function_status[15:3],
                  cfg_function_status[1:0], cfg_interrupt_msi_enable[1], msi_word[31:5], s_axis_cc_tready[3:1],
                  s_axis_rq_tready[3:1], h[97:96], h[31], h[29], h[23], h[19], h[17:15], h[11:10]};
endmodule
`default_nettype wire
