`default_nettype none
// kolo_sp_axil - the AXI4-Lite master of kolo_sp: one access at a time for
// the core's data bus, with a timeout.
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
    output reg               m_axil_awvalid,
    input  wire              m_axil_awready,
    output reg  [ADDR_W-1:0] m_axil_awaddr,
    output reg               m_axil_wvalid,
    input  wire              m_axil_wready,
    output reg  [31:0]       m_axil_wdata,
    output reg  [3:0]        m_axil_wstrb,
    input  wire              m_axil_bvalid,
    output wire              m_axil_bready,
    input  wire [1:0]        m_axil_bresp,
    output reg               m_axil_arvalid,
    input  wire              m_axil_arready,
    output reg  [ADDR_W-1:0] m_axil_araddr,
    input  wire              m_axil_rvalid,
    output wire              m_axil_rready,
    input  wire [31:0]       m_axil_rdata,
    input  wire [1:0]        m_axil_rresp
);
  localparam CW = $clog2(TIMEOUT + 1);
  localparam [CW-1:0] LIMIT = TIMEOUT[CW-1:0];

  reg busy;        // an access is on the bus (issued, response not yet taken)
  reg owned;       // it belongs to the current req (not given up)
  reg busy_write;  // it is a write
  reg [CW-1:0] waited;

  wire b_hs = m_axil_bvalid && busy && busy_write;
  wire r_hs = m_axil_rvalid && busy && !busy_write;
  wire resp = b_hs || r_hs;
  // the core holds req until done and presents a new one only after it
  wire start = req && !busy && !owned;
  wire timeout = req && !(resp && owned) && waited == LIMIT;

  assign m_axil_bready = 1'b1;
  assign m_axil_rready = 1'b1;
  assign done = (resp && owned) || timeout;
  assign err = timeout || (b_hs ? m_axil_bresp != 2'b00 : m_axil_rresp != 2'b00);
  assign rdata = m_axil_rdata;

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      owned <= 1'b0;
      busy_write <= 1'b0;
      waited <= {CW{1'b0}};
      m_axil_awvalid <= 1'b0;
      m_axil_wvalid <= 1'b0;
      m_axil_arvalid <= 1'b0;
    end else begin
      if (m_axil_awvalid && m_axil_awready) m_axil_awvalid <= 1'b0;
      if (m_axil_wvalid && m_axil_wready) m_axil_wvalid <= 1'b0;
      if (m_axil_arvalid && m_axil_arready) m_axil_arvalid <= 1'b0;
      if (resp) begin
        busy <= 1'b0;
        owned <= 1'b0;
      end
      if (timeout) owned <= 1'b0;
      if (start) begin
        busy <= 1'b1;
        owned <= 1'b1;
        busy_write <= write;
        m_axil_awvalid <= write;
        m_axil_wvalid <= write;
        m_axil_arvalid <= !write;
      end
      if (!req || done) waited <= {CW{1'b0}};
      else waited <= waited + 1'b1;
    end
    if (start) begin
      m_axil_awaddr <= {addr[ADDR_W-1:2], 2'b00};
      m_axil_araddr <= {addr[ADDR_W-1:2], 2'b00};
      m_axil_wdata <= wdata;
      m_axil_wstrb <= wstrb;
    end
  end
  wire unused = &{1'b0, addr[1:0]};
endmodule
`default_nettype wire
