`default_nettype none
// kolo_sp_axil - the AXI4-Lite master of kolo_sp: one access at a time for
// the core's data bus, with a timeout (the bus side is the common
// kolo_axil_single).
//
// req (held by the core until done, unchanged) starts one access: a write
// offers AW and W together, each held until taken; a read offers AR. BREADY
// and RREADY are high. done pulses with err = BRESP/RRESP not OKAY, or
// with err after TIMEOUT cycles of req without a response. The master
// keeps waiting for a response it gave up on (and keeps offering a valid
// not yet taken: AXI forbids withdrawing it) before it starts the next
// access, whose own timeout runs meanwhile: a slave that never answers
// makes every access fail after TIMEOUT cycles, never hangs the core, and
// a late response is never taken for the next access's.
// The address is the byte address of the word (bits 1:0 zero).
module kolo_sp_axil #(
    parameter ADDR_W  = 15,
    parameter TIMEOUT = 65536
) (
    input  wire              clk,
    input  wire              rst,
    input  wire              req,
    input  wire              write,
    input  wire [ADDR_W-1:0] addr,
    input  wire [31:0]       wdata,
    input  wire [3:0]        wstrb,
    output wire              done,
    output wire              err,
    output wire [31:0]       rdata,
    output wire              m_axil_awvalid,
    input  wire              m_axil_awready,
    output wire [ADDR_W-1:0] m_axil_awaddr,
    output wire              m_axil_wvalid,
    input  wire              m_axil_wready,
    output wire [31:0]       m_axil_wdata,
    output wire [3:0]        m_axil_wstrb,
    input  wire              m_axil_bvalid,
    output wire              m_axil_bready,
    input  wire [1:0]        m_axil_bresp,
    output wire              m_axil_arvalid,
    input  wire              m_axil_arready,
    output wire [ADDR_W-1:0] m_axil_araddr,
    input  wire              m_axil_rvalid,
    output wire              m_axil_rready,
    input  wire [31:0]       m_axil_rdata,
    input  wire [1:0]        m_axil_rresp
);
  localparam CW = $clog2(TIMEOUT + 1);
  localparam [CW-1:0] LIMIT = TIMEOUT[CW-1:0];

  reg owned;       // the access on the bus belongs to the current req (not given up)
  reg [CW-1:0] waited;
  wire busy;       // an access is on the bus (issued, response not yet taken)
  wire resp;       // its response beat
  wire resp_err;

  // the core holds req until done and presents a new one only after it
  wire start = req && !busy && !owned;
  wire timeout = req && !(resp && owned) && waited == LIMIT;
  assign done = (resp && owned) || timeout;
  assign err = timeout || resp_err;

  /* verilator lint_off PINCONNECTEMPTY */  // the core takes one access at a time (start waits for !busy); a response is of its own kind
  kolo_axil_single #(
      .ADDR_W(ADDR_W)
  ) u_axil (
      .clk           (clk),
      .rst           (rst),
      .s_valid       (start),
      .s_ready       (),
      .s_write       (write),
      .s_addr        ({addr[ADDR_W-1:2], 2'b00}),
      .s_wdata       (wdata),
      .s_wstrb       (wstrb),
      .busy          (busy),
      .m_done        (resp),
      .m_done_write  (),
      .m_done_err    (resp_err),
      .m_done_rdata  (rdata),
      .m_axil_awvalid(m_axil_awvalid),
      .m_axil_awready(m_axil_awready),
      .m_axil_awaddr (m_axil_awaddr),
      .m_axil_wvalid (m_axil_wvalid),
      .m_axil_wready (m_axil_wready),
      .m_axil_wdata  (m_axil_wdata),
      .m_axil_wstrb  (m_axil_wstrb),
      .m_axil_bvalid (m_axil_bvalid),
      .m_axil_bready (m_axil_bready),
      .m_axil_bresp  (m_axil_bresp),
      .m_axil_arvalid(m_axil_arvalid),
      .m_axil_arready(m_axil_arready),
      .m_axil_araddr (m_axil_araddr),
      .m_axil_rvalid (m_axil_rvalid),
      .m_axil_rready (m_axil_rready),
      .m_axil_rdata  (m_axil_rdata),
      .m_axil_rresp  (m_axil_rresp)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  always @(posedge clk) begin
    if (rst) begin
      owned <= 1'b0;
      waited <= {CW{1'b0}};
    end else begin
      if (resp || timeout) owned <= 1'b0;
      if (start) owned <= 1'b1;
      if (!req || done) waited <= {CW{1'b0}};
      else waited <= waited + 1'b1;
    end
  end
  wire unused = &{1'b0, addr[1:0]};
endmodule
`default_nettype wire
