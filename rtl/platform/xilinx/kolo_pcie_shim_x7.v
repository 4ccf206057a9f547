`default_nettype none
// kolo_pcie_shim_x7 - adapts kolo_pcie_ep to the 128-bit AXI4-Stream TLP
// interface of the Xilinx 7-series Integrated Block for PCI Express
// (docs/pcie-shims.md). Vendor IP is not instantiated here.
//
// Receive (m_axis_rx_*): the block may straddle, a TLP starting at DW2 of
// the beat in which the previous one ended (tuser is_sof/is_eof); such a
// beat goes to kolo_pcie_shim_rx as two segments (tready low for the first).
// BAR hits (tuser[9:2]: bits 1:0 BAR0, 3:2 BAR2) move a request's address
// into the core's BAR windows (BAR0_BASE, BAR2_BASE given as cfg_bar0/2).
// Transmit (s_axis_tx_*): whole beats, tkeep on the last, tuser 0 (no
// streaming, so tvalid may drop inside a TLP). MSIs leave through the
// block's cfg_interrupt/cfg_interrupt_rdy handshake with the vector in
// cfg_interrupt_di. Configuration: requester id from the bus/device/function
// numbers, MPS/MRRS from cfg_dcommand, bus master from cfg_command[2], MSI
// enable from cfg_interrupt_msienable.
// Non-posted flow control: rx_np_ok from kolo_pcie_shim_npfc over the core's
// np_credit (high while more than NP_SLACK requests fit into the core's
// queue: the block may still deliver NP_SLACK after it falls), so that a
// host read waiting for the completer never holds back the writes and
// completions behind it; rx_np_req is 1 (no per-request grants).
// Completion space: CPL_HDR_CREDITS / CPL_DATA_CREDITS (the block's receive
// buffer for completions; set them from the block's customization) go to
// the core as ep_cfg_cpl_hdr / _data.
// Handshakes: AXI4-Stream valid/ready both ways, cfg_interrupt held until
// cfg_interrupt_rdy; the ep_* ports are kolo_pcie_ep's, valid/ready.
// Header DWs travel as spec values (Fmt in bits 31:29), payload bytes
// little-endian as in the core (PAYLOAD_SWAP 1 would byte-swap payload DWs).
module kolo_pcie_shim_x7 #(
    parameter BAR0_SIZE_LOG2 = 17,
    parameter BAR2_SIZE_LOG2 = 16,
    parameter [31:0] BAR0_BASE = 32'h8000_0000,
    parameter [31:0] BAR2_BASE = 32'hC000_0000,
    parameter PAYLOAD_SWAP = 0,
    parameter [63:0] MSI_ADDR = 64'hFFFF_FFFF_FFFF_FFF0,
    parameter NP_SLACK = 4,           // non-posted requests the block may send after rx_np_ok falls
    parameter CPL_HDR_CREDITS = 32,   // the block's completion buffer: headers
    parameter CPL_DATA_CREDITS = 512  // and data credits of 16 bytes (8 KiB)
) (
    input  wire         clk,
    input  wire         rst,
    // block -> user
    input  wire         m_axis_rx_tvalid,
    output wire         m_axis_rx_tready,
    input  wire [127:0] m_axis_rx_tdata,
    input  wire [21:0]  m_axis_rx_tuser,
    output wire         rx_np_ok,
    output wire         rx_np_req,
    // user -> block
    output wire         s_axis_tx_tvalid,
    input  wire         s_axis_tx_tready,
    output wire [127:0] s_axis_tx_tdata,
    output wire [15:0]  s_axis_tx_tkeep,
    output wire         s_axis_tx_tlast,
    output wire [3:0]   s_axis_tx_tuser,
    output wire         tx_cfg_gnt,
    // configuration and interrupts
    input  wire [7:0]   cfg_bus_number,
    input  wire [4:0]   cfg_device_number,
    input  wire [2:0]   cfg_function_number,
    input  wire [15:0]  cfg_command,
    input  wire [15:0]  cfg_dcommand,
    input  wire         cfg_interrupt_msienable,
    output wire         cfg_interrupt,
    input  wire         cfg_interrupt_rdy,
    output wire [7:0]   cfg_interrupt_di,
    output wire         cfg_interrupt_assert,
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
    input  wire         ep_np_credit,
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
      kolo_pcie_shim_x7_PARAMETER_ERROR_completion_credits_out_of_range u_bad ();
    end
  endgenerate
  // ---- receive: split straddled beats ------------------------------------------------
  wire       sof = m_axis_rx_tuser[14];
  wire [1:0] sof_dw = m_axis_rx_tuser[13:12];
  wire       eof = m_axis_rx_tuser[21];
  wire [1:0] eof_dw = m_axis_rx_tuser[20:19];
  // the beat ends one TLP and starts the next: two segments
  wire straddle = sof && eof && sof_dw == 2'd2 && eof_dw < 2'd2;
  reg  second_q;   // the first segment of a straddled beat was taken
  wire seg_first = straddle && !second_q;
  wire core_ready;
  wire seg_sof = sof && !seg_first;
  wire seg_eof = eof && (!straddle || seg_first);
  wire [1:0] bar = {|m_axis_rx_tuser[5:4], |m_axis_rx_tuser[3:2]};

  assign m_axis_rx_tready = core_ready && !seg_first;
  assign rx_np_req = 1'b1;
  // a TLP starts in the beat taken now: its DW0 is in lane sof_dw
  wire [31:0] sof_dw0 = sof_dw[1] ? m_axis_rx_tdata[95:64] : m_axis_rx_tdata[31:0];
  kolo_pcie_shim_npfc #(.SLACK(NP_SLACK)) u_npfc (
      .clk(clk), .rst(rst), .credit(ep_np_credit),
      .take(m_axis_rx_tvalid && m_axis_rx_tready && sof), .take_dw0(sof_dw0[31:24]),
      .np_ok(rx_np_ok)
  );
  always @(posedge clk) begin
    if (rst) second_q <= 1'b0;
    else if (m_axis_rx_tvalid && core_ready) second_q <= seg_first;
  end

  kolo_pcie_shim_rx #(
      .LANES(4), .QWORD_ALIGN(0), .PAYLOAD_SWAP(PAYLOAD_SWAP),
      .BAR0_SIZE_LOG2(BAR0_SIZE_LOG2), .BAR2_SIZE_LOG2(BAR2_SIZE_LOG2),
      .BAR0_BASE(BAR0_BASE), .BAR2_BASE(BAR2_BASE)
  ) u_rx (
      .clk(clk), .rst(rst),
      .in_valid(m_axis_rx_tvalid), .in_ready(core_ready), .in_data(m_axis_rx_tdata),
      .in_sof(seg_sof), .in_eof(seg_eof),
      .in_start({2'b00, seg_sof ? sof_dw : 2'd0}),
      .in_end({2'b00, seg_eof ? eof_dw : 2'd3}),
      .in_bar(bar),
      .rx_tlp_valid(ep_rx_tlp_valid), .rx_tlp_ready(ep_rx_tlp_ready), .rx_tlp_hdr(ep_rx_tlp_hdr),
      .rx_tlp_data(ep_rx_tlp_data), .rx_tlp_sop(ep_rx_tlp_sop), .rx_tlp_eop(ep_rx_tlp_eop),
      .rx_tlp_dw_en(ep_rx_tlp_dw_en)
  );

  // ---- transmit ------------------------------------------------------------------------
  wire [3:0]  tx_end;
  wire        tx_sop_unused;
  wire [31:0] msi_word;
  kolo_pcie_shim_tx #(.LANES(4), .QWORD_ALIGN(0), .PAYLOAD_SWAP(PAYLOAD_SWAP), .MSI_ADDR(MSI_ADDR)) u_tx (
      .clk(clk), .rst(rst),
      .tx_tlp_valid(ep_tx_tlp_valid), .tx_tlp_ready(ep_tx_tlp_ready), .tx_tlp_hdr(ep_tx_tlp_hdr),
      .tx_tlp_data(ep_tx_tlp_data), .tx_tlp_sop(ep_tx_tlp_sop), .tx_tlp_eop(ep_tx_tlp_eop),
      .tx_tlp_dw_en(ep_tx_tlp_dw_en),
      .out_valid(s_axis_tx_tvalid), .out_ready(s_axis_tx_tready), .out_data(s_axis_tx_tdata),
      .out_sop(tx_sop_unused), .out_eop(s_axis_tx_tlast), .out_end(tx_end),
      .msi_valid(cfg_interrupt), .msi_ready(cfg_interrupt_rdy), .msi_data(msi_word)
  );
  assign s_axis_tx_tkeep = {{4{tx_end[1:0] == 2'd3}}, {4{tx_end[1:0] >= 2'd2}}, {4{tx_end[1:0] >= 2'd1}}, 4'hF};
  assign s_axis_tx_tuser = 4'd0;
  assign tx_cfg_gnt = 1'b1;
  assign cfg_interrupt_di = msi_word[7:0];
  assign cfg_interrupt_assert = 1'b0;

  // ---- configuration --------------------------------------------------------------------
  assign ep_cfg_bar0 = {32'd0, BAR0_BASE};
  assign ep_cfg_bar2 = {32'd0, BAR2_BASE};
  assign ep_cfg_req_id = {cfg_bus_number, cfg_device_number, cfg_function_number};
  assign ep_cfg_max_payload = cfg_dcommand[7:5];
  assign ep_cfg_max_read_req = cfg_dcommand[14:12];
  assign ep_cfg_bus_master = cfg_command[2];
  assign ep_cfg_msi_addr = MSI_ADDR;
  assign ep_cfg_msi_data = 16'd0;
  assign ep_cfg_msi_en = cfg_interrupt_msienable;
  assign ep_cfg_cpl_hdr = CPL_HDR_CREDITS[11:0];
  assign ep_cfg_cpl_data = CPL_DATA_CREDITS[15:0];
  // ECRC error, poisoned (the core reads EP), BAR1/3..7 hits, is_sof/is_eof
  // byte offsets within the DW, command/device control bits not used here
  wire unused = &{1'b0, m_axis_rx_tuser[18:15], m_axis_rx_tuser[11:6], m_axis_rx_tuser[1:0],
                  cfg_command[15:3], cfg_command[1:0], cfg_dcommand[15], cfg_dcommand[11:8],
                  cfg_dcommand[4:0], tx_end[3:2], msi_word[31:8], tx_sop_unused, sof_dw0[23:0]};
endmodule
`default_nettype wire
