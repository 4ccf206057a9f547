`default_nettype none
// kolo_pcie_shim_avst - adapts kolo_pcie_ep to the Avalon-ST TLP interface
// of Intel's PCIe hard IP (Arria 10 / Cyclone 10 GX / Stratix V style,
// 256-bit, one packet per cycle; docs/pcie-shims.md). Vendor IP is not
// instantiated here.
//
// Receive (rx_st_*): a TLP starts in DW0 of its sop beat; payload is
// qword-aligned (a pad DW after the header where the address needs one),
// rx_st_empty counts empty qwords of the eop beat. The hard IP may send up
// to RX_READY_LATENCY beats after rx_st_ready falls, so beats go through a
// FIFO and rx_st_ready asks for more only while that many places are free.
// rx_st_bar (bits 1:0 BAR0, 3:2 BAR2) moves a request's address into the
// core's BAR windows. rx_st_mask: non-posted flow control from
// kolo_pcie_shim_npfc over the core's np_credit (set while NP_SLACK or
// fewer requests fit into the core's queue: the hard IP may still send 10
// after the mask rises), so that a host read waiting for the completer
// never holds back the writes and completions behind it.
// Completion space: the hard IP reports its receive buffer for completions
// on ko_cpl_spc_header (headers) and ko_cpl_spc_data (16-byte credits);
// they go to the core as ep_cfg_cpl_hdr / _data, which keeps its reads
// within them.
// Transmit (tx_st_*): beats may only be driven TX_READY_LATENCY cycles after
// tx_st_ready was high (Avalon readyLatency); tx_st_empty counts empty
// qwords of the eop beat, tx_st_err is 0. MSIs leave through
// app_msi_req/app_msi_ack with the vector in app_msi_num.
// Configuration (req id, MPS, MRRS, bus master, MSI enable) arrives decoded
// (the board top decodes the hard IP's tl_cfg bus) and passes to the core.
// Handshakes: Avalon-ST with ready latency as above, app_msi_req held until
// app_msi_ack; the ep_* ports are kolo_pcie_ep's, valid/ready.
module kolo_pcie_shim_avst #(
    parameter BAR0_SIZE_LOG2 = 17,
    parameter BAR2_SIZE_LOG2 = 16,
    parameter [31:0] BAR0_BASE = 32'h8000_0000,
    parameter [31:0] BAR2_BASE = 32'hC000_0000,
    parameter RX_READY_LATENCY = 3,
    parameter TX_READY_LATENCY = 2,   // >= 2
    parameter [63:0] MSI_ADDR = 64'hFFFF_FFFF_FFFF_FFF0,
    parameter NP_SLACK = 10           // non-posted requests the hard IP may send after rx_st_mask
) (
    input  wire         clk,
    input  wire         rst,
    // hard IP -> user
    input  wire         rx_st_valid,
    output wire         rx_st_ready,
    input  wire [255:0] rx_st_data,
    input  wire         rx_st_sop,
    input  wire         rx_st_eop,
    input  wire [1:0]   rx_st_empty,
    input  wire [7:0]   rx_st_bar,
    output wire         rx_st_mask,
    input  wire [7:0]   ko_cpl_spc_header,
    input  wire [11:0]  ko_cpl_spc_data,
    // user -> hard IP
    output wire         tx_st_valid,
    input  wire         tx_st_ready,
    output wire [255:0] tx_st_data,
    output wire         tx_st_sop,
    output wire         tx_st_eop,
    output wire [1:0]   tx_st_empty,
    output wire         tx_st_err,
    // MSI
    output wire         app_msi_req,
    input  wire         app_msi_ack,
    output wire [4:0]   app_msi_num,
    output wire [2:0]   app_msi_tc,
    // decoded configuration
    input  wire [15:0]  cfg_req_id,
    input  wire [2:0]   cfg_max_payload,
    input  wire [2:0]   cfg_max_read_req,
    input  wire         cfg_bus_master,
    input  wire         cfg_msi_en,
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
  // ---- receive ---------------------------------------------------------------------------
  localparam RXW = 256 + 1 + 1 + 2 + 2;
  localparam RX_DEPTH = 2 * RX_READY_LATENCY + 4;
  wire [RXW-1:0] f_out;
  wire           f_valid, f_ready, f_in_ready_unused;
  wire [$clog2(RX_DEPTH+1)-1:0] f_count;
  // ready while the beats that may still come after it falls fit
  reg rx_ready_q;
  assign rx_st_ready = rx_ready_q;
  always @(posedge clk) begin
    if (rst) rx_ready_q <= 1'b0;
    else rx_ready_q <= {{(32 - $clog2(RX_DEPTH+1)) {1'b0}}, f_count} + RX_READY_LATENCY + 2 <= RX_DEPTH;
  end
  kolo_fifo_sync #(.WIDTH(RXW), .DEPTH(RX_DEPTH)) u_rx_fifo (
      .clk(clk), .rst(rst),
      .in_valid(rx_st_valid), .in_ready(f_in_ready_unused),
      .in_data({rx_st_data, rx_st_sop, rx_st_eop, rx_st_empty, |rx_st_bar[3:2], |rx_st_bar[1:0]}),
      .out_valid(f_valid), .out_ready(f_ready), .out_data(f_out), .count(f_count)
  );
  wire       f_sop = f_out[5];
  wire       f_eop = f_out[4];
  wire [1:0] f_empty = f_out[3:2];
  wire np_ok;
  kolo_pcie_shim_npfc #(.SLACK(NP_SLACK)) u_npfc (
      .clk(clk), .rst(rst), .credit(ep_np_credit),
      .take(rx_st_valid && rx_st_sop), .take_dw0(rx_st_data[31:24]), .np_ok(np_ok)
  );
  assign rx_st_mask = !np_ok;

  kolo_pcie_shim_rx #(
      .LANES(8), .QWORD_ALIGN(1), .PAYLOAD_SWAP(0),
      .BAR0_SIZE_LOG2(BAR0_SIZE_LOG2), .BAR2_SIZE_LOG2(BAR2_SIZE_LOG2),
      .BAR0_BASE(BAR0_BASE), .BAR2_BASE(BAR2_BASE)
  ) u_rx (
      .clk(clk), .rst(rst),
      .in_valid(f_valid), .in_ready(f_ready), .in_data(f_out[RXW-1:6]),
      .in_sof(f_sop), .in_eof(f_eop),
      .in_start(4'd0),
      .in_end(f_eop ? 4'd7 - {1'b0, f_empty, 1'b0} : 4'd7),
      .in_bar(f_out[1:0]),
      .rx_tlp_valid(ep_rx_tlp_valid), .rx_tlp_ready(ep_rx_tlp_ready), .rx_tlp_hdr(ep_rx_tlp_hdr),
      .rx_tlp_data(ep_rx_tlp_data), .rx_tlp_sop(ep_rx_tlp_sop), .rx_tlp_eop(ep_rx_tlp_eop),
      .rx_tlp_dw_en(ep_rx_tlp_dw_en)
  );

  // ---- transmit ----------------------------------------------------------------------------
  // a beat may go in cycle n only if tx_st_ready was high in n - TX_READY_LATENCY
  reg [TX_READY_LATENCY-1:0] rdy_hist;
  always @(posedge clk) begin
    if (rst) rdy_hist <= {TX_READY_LATENCY{1'b0}};
    else rdy_hist <= {rdy_hist[TX_READY_LATENCY-2:0], tx_st_ready};
  end
  wire        may_send = rdy_hist[TX_READY_LATENCY-1];
  wire        t_valid;
  wire [3:0]  t_end;
  wire [31:0] msi_word;
  kolo_pcie_shim_tx #(.LANES(8), .QWORD_ALIGN(1), .PAYLOAD_SWAP(0), .MSI_ADDR(MSI_ADDR)) u_tx (
      .clk(clk), .rst(rst),
      .tx_tlp_valid(ep_tx_tlp_valid), .tx_tlp_ready(ep_tx_tlp_ready), .tx_tlp_hdr(ep_tx_tlp_hdr),
      .tx_tlp_data(ep_tx_tlp_data), .tx_tlp_sop(ep_tx_tlp_sop), .tx_tlp_eop(ep_tx_tlp_eop),
      .tx_tlp_dw_en(ep_tx_tlp_dw_en),
      .out_valid(t_valid), .out_ready(may_send), .out_data(tx_st_data),
      .out_sop(tx_st_sop), .out_eop(tx_st_eop), .out_end(t_end),
      .msi_valid(app_msi_req), .msi_ready(app_msi_ack), .msi_data(msi_word)
  );
  assign tx_st_valid = t_valid && may_send;
  assign tx_st_empty = tx_st_eop ? 2'd3 - t_end[2:1] : 2'd0;
  assign tx_st_err = 1'b0;
  assign app_msi_num = msi_word[4:0];
  assign app_msi_tc = 3'd0;

  // ---- configuration ---------------------------------------------------------------------
  assign ep_cfg_bar0 = {32'd0, BAR0_BASE};
  assign ep_cfg_bar2 = {32'd0, BAR2_BASE};
  assign ep_cfg_req_id = cfg_req_id;
  assign ep_cfg_max_payload = cfg_max_payload;
  assign ep_cfg_max_read_req = cfg_max_read_req;
  assign ep_cfg_bus_master = cfg_bus_master;
  assign ep_cfg_msi_addr = MSI_ADDR;
  assign ep_cfg_msi_data = 16'd0;
  assign ep_cfg_msi_en = cfg_msi_en;
  assign ep_cfg_cpl_hdr = {4'd0, ko_cpl_spc_header};
  assign ep_cfg_cpl_data = {4'd0, ko_cpl_spc_data};
  wire unused = &{1'b0, rx_st_bar[7:4], t_end[3], t_end[0], msi_word[31:5], f_in_ready_unused};
endmodule
`default_nettype wire
