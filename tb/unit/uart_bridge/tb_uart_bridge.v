`default_nettype none
// tb_uart_bridge - the ECP5 board's host bridge (kolo_uart_host +
// kolo_uart_tlp, as kolo_board_ecp5_evn wires them) for tb_uart_bridge.cpp:
// the serial line on one side, the chip's TLP streams and the service
// processor's console on the other. 20 MHz clock, 1 Mbaud (20 clocks a bit,
// not a multiple of the receiver's 16 ticks), chip accesses time out after
// 2000 cycles.
module tb_uart_bridge (
    input  wire         clk,
    input  wire         rst,
    input  wire         rxd,
    output wire         txd,
    output wire         m_tlp_valid,
    input  wire         m_tlp_ready,
    output wire [127:0] m_tlp_hdr,
    output wire [255:0] m_tlp_data,
    output wire         m_tlp_sop,
    output wire         m_tlp_eop,
    output wire [7:0]   m_tlp_dw_en,
    input  wire         s_tlp_valid,
    output wire         s_tlp_ready,
    input  wire [127:0] s_tlp_hdr,
    input  wire [255:0] s_tlp_data,
    input  wire         s_tlp_sop,
    input  wire         s_tlp_eop,
    input  wire [7:0]   s_tlp_dw_en,
    input  wire         s_con_valid,
    input  wire [7:0]   s_con_data
);
  wire        req_valid, req_ready, req_write, req_abandon, rsp_valid, rsp_err, tlp_drop;
  wire [31:0] req_addr, req_wdata, rsp_data;
  wire [7:0]  req_tag, rsp_tag;
  kolo_uart_host #(.CLK_HZ(20000000), .BAUD(1000000), .TIMEOUT(2000), .CONSOLE_DEPTH(64)) u_host (
      .clk(clk), .rst(rst), .rxd(rxd), .txd(txd),
      .m_req_valid(req_valid), .m_req_ready(req_ready), .m_req_write(req_write),
      .m_req_addr(req_addr), .m_req_wdata(req_wdata), .m_req_tag(req_tag), .m_req_abandon(req_abandon),
      .s_rsp_valid(rsp_valid), .s_rsp_err(rsp_err), .s_rsp_data(rsp_data), .s_rsp_tag(rsp_tag),
      .tlp_drop(tlp_drop), .s_con_valid(s_con_valid), .s_con_data(s_con_data)
  );
  kolo_uart_tlp #(.BAR0_BASE(32'h8000_0000)) u_tlp (
      .clk(clk), .rst(rst),
      .s_req_valid(req_valid), .s_req_ready(req_ready), .s_req_write(req_write),
      .s_req_addr(req_addr), .s_req_wdata(req_wdata), .s_req_tag(req_tag), .s_req_abandon(req_abandon),
      .m_rsp_valid(rsp_valid), .m_rsp_err(rsp_err), .m_rsp_data(rsp_data), .m_rsp_tag(rsp_tag),
      .tlp_drop(tlp_drop),
      .m_tlp_valid(m_tlp_valid), .m_tlp_ready(m_tlp_ready), .m_tlp_hdr(m_tlp_hdr), .m_tlp_data(m_tlp_data),
      .m_tlp_sop(m_tlp_sop), .m_tlp_eop(m_tlp_eop), .m_tlp_dw_en(m_tlp_dw_en),
      .s_tlp_valid(s_tlp_valid), .s_tlp_ready(s_tlp_ready), .s_tlp_hdr(s_tlp_hdr), .s_tlp_data(s_tlp_data),
      .s_tlp_sop(s_tlp_sop), .s_tlp_eop(s_tlp_eop), .s_tlp_dw_en(s_tlp_dw_en)
  );
endmodule
`default_nettype wire
