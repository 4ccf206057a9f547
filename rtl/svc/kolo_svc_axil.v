`default_nettype none
// kolo_svc_axil - the two 32-bit AXI4-Lite slave ports of the service block
// (s_*: service processor, h_*: host through BAR0) turned into one access at
// a time for kolo_svc.
//
// Four requesters (service write, service read, host write, host read) share
// a round-robin arbiter, so neither port nor direction can starve the other.
// A write is taken only when AWVALID and WVALID are both high (AWREADY and
// WREADY rise together, in the cycle of the grant); a read when ARVALID is
// high. The access is then offered on op_* (op_valid held) until op_done
// pulses with op_err (SLVERR) and op_rdata; the response is driven on B or
// R from the next cycle until BREADY/RREADY. Nothing new is taken before
// the response has been accepted.
module kolo_svc_axil #(
    parameter ADDR_W = 15
) (
    input  wire              clk,
    input  wire              rst,
    // service processor
    input  wire              s_axil_awvalid,
    output wire              s_axil_awready,
    input  wire [ADDR_W-1:0] s_axil_awaddr,
    input  wire              s_axil_wvalid,
    output wire              s_axil_wready,
    input  wire [31:0]       s_axil_wdata,
    input  wire [3:0]        s_axil_wstrb,
    output wire              s_axil_bvalid,
    input  wire              s_axil_bready,
    output wire [1:0]        s_axil_bresp,
    input  wire              s_axil_arvalid,
    output wire              s_axil_arready,
    input  wire [ADDR_W-1:0] s_axil_araddr,
    output wire              s_axil_rvalid,
    input  wire              s_axil_rready,
    output wire [31:0]       s_axil_rdata,
    output wire [1:0]        s_axil_rresp,
    // host (BAR0)
    input  wire              h_axil_awvalid,
    output wire              h_axil_awready,
    input  wire [ADDR_W-1:0] h_axil_awaddr,
    input  wire              h_axil_wvalid,
    output wire              h_axil_wready,
    input  wire [31:0]       h_axil_wdata,
    input  wire [3:0]        h_axil_wstrb,
    output wire              h_axil_bvalid,
    input  wire              h_axil_bready,
    output wire [1:0]        h_axil_bresp,
    input  wire              h_axil_arvalid,
    output wire              h_axil_arready,
    input  wire [ADDR_W-1:0] h_axil_araddr,
    output wire              h_axil_rvalid,
    input  wire              h_axil_rready,
    output wire [31:0]       h_axil_rdata,
    output wire [1:0]        h_axil_rresp,
    // the access being executed
    output reg               op_valid,
    output reg               op_write,
    output reg               op_host,
    output reg  [ADDR_W-1:0] op_addr,
    output reg  [31:0]       op_wdata,
    output reg  [3:0]        op_strb,
    input  wire              op_done,
    input  wire              op_err,
    input  wire [31:0]       op_rdata
);
  localparam [1:0] OKAY = 2'b00, SLVERR = 2'b10;

  reg resp_valid;   // a B or R response is being offered
  reg [31:0] resp_data;
  reg resp_err;
  wire idle = !op_valid && !resp_valid;

  // requesters: 0 service write, 1 service read, 2 host write, 3 host read
  wire [3:0] req = idle ? {h_axil_arvalid, h_axil_awvalid && h_axil_wvalid,
                           s_axil_arvalid, s_axil_awvalid && s_axil_wvalid} : 4'd0;
  wire [3:0] grant;
  kolo_arb_rr #(
      .N(4)
  ) u_arb (
      .clk(clk),
      .rst(rst),
      .req(req),
      .advance(1'b1),
      .grant(grant)
  );

  assign s_axil_awready = grant[0];
  assign s_axil_wready = grant[0];
  assign s_axil_arready = grant[1];
  assign h_axil_awready = grant[2];
  assign h_axil_wready = grant[2];
  assign h_axil_arready = grant[3];

  always @(posedge clk) begin
    if (rst) begin
      op_valid <= 1'b0;
      resp_valid <= 1'b0;
    end else begin
      if (grant != 4'd0) op_valid <= 1'b1;
      if (op_done) begin
        op_valid <= 1'b0;
        resp_valid <= 1'b1;
      end
      if (resp_valid && (op_host ? (op_write ? h_axil_bready : h_axil_rready)
                                 : (op_write ? s_axil_bready : s_axil_rready)))
        resp_valid <= 1'b0;
    end
  end

  always @(posedge clk) begin
    if (grant != 4'd0) begin
      op_write <= grant[0] || grant[2];
      op_host <= grant[2] || grant[3];
      op_addr <= grant[0] ? s_axil_awaddr : grant[1] ? s_axil_araddr :
                 grant[2] ? h_axil_awaddr : h_axil_araddr;
      op_wdata <= grant[0] ? s_axil_wdata : h_axil_wdata;
      op_strb <= grant[0] ? s_axil_wstrb : h_axil_wstrb;
    end
    if (op_done) begin
      resp_data <= op_write ? 32'd0 : op_rdata;
      resp_err <= op_err;
    end
  end

  wire [1:0] resp_code = resp_err ? SLVERR : OKAY;
  assign s_axil_bvalid = resp_valid && !op_host && op_write;
  assign s_axil_rvalid = resp_valid && !op_host && !op_write;
  assign h_axil_bvalid = resp_valid && op_host && op_write;
  assign h_axil_rvalid = resp_valid && op_host && !op_write;
  assign s_axil_bresp = resp_code;
  assign s_axil_rresp = resp_code;
  assign h_axil_bresp = resp_code;
  assign h_axil_rresp = resp_code;
  assign s_axil_rdata = resp_data;
  assign h_axil_rdata = resp_data;
endmodule
`default_nettype wire
