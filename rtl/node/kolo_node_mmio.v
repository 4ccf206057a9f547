`default_nettype none
// kolo_node_mmio - puts the service registers into the host's BAR0: MMIO
// from the PCIe endpoint core (kolo_pcie_ep user side) to BAR0 offsets
// HOST_BASE .. HOST_BASE + SPACE - 1 (0x8000..0xffff, kolo_svc_regs.toml)
// become 32-bit AXI4-Lite accesses on the service block's host port (m_axil_*,
// to kolo_svc h_axil_*); everything else passes to the NI (ni_mmio_*).
//
// Writes: a beat of the window carries one aligned 4-byte access (one full
// 4-byte strobe group). Any other strobe pattern is still sent, with the
// first used group's strobes (or none), so the service block refuses it
// with SLVERR and counts it in BAD_ACCESS: bad input is counted, never
// written. Reads: 4 bytes, aligned; any other size is sent as a misaligned
// address for the same reason, and the completion reports the error.
// One window access at a time; a window read waits for the NI's read in
// flight (and the other way round), so read completions leave in request
// order. Writes go first when a write and a read are offered together (a
// read never passes a posted write). Handshakes: valid/ready on every port;
// the endpoint side sees ready only for the beat it hands over.
module kolo_node_mmio #(
    parameter [31:0] HOST_BASE = 32'h8000,
    parameter ADDR_W = 15                  // log2 of the window (the service space)
) (
    input  wire          clk,
    input  wire          rst,
    // from the endpoint core
    input  wire          mmio_wr_valid,
    output wire          mmio_wr_ready,
    input  wire [1:0]    mmio_wr_bar,
    input  wire [31:0]   mmio_wr_addr,
    input  wire [511:0]  mmio_wr_data,
    input  wire [63:0]   mmio_wr_strb,
    input  wire          mmio_rd_valid,
    output wire          mmio_rd_ready,
    input  wire [1:0]    mmio_rd_bar,
    input  wire [31:0]   mmio_rd_addr,
    input  wire [3:0]    mmio_rd_len,
    output wire          mmio_rd_resp_valid,
    input  wire          mmio_rd_resp_ready,
    output wire [63:0]   mmio_rd_resp_data,
    output wire          mmio_rd_resp_err,
    // to the NI
    output wire          ni_mmio_wr_valid,
    input  wire          ni_mmio_wr_ready,
    output wire          ni_mmio_rd_valid,
    input  wire          ni_mmio_rd_ready,
    input  wire          ni_mmio_rd_resp_valid,
    output wire          ni_mmio_rd_resp_ready,
    input  wire [63:0]   ni_mmio_rd_resp_data,
    input  wire          ni_mmio_rd_resp_err,
    // to the service block's host port
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
  localparam [31:0] WIN_MASK = ~((32'd1 << ADDR_W) - 32'd1);
  wire wr_win = mmio_wr_bar == 2'd0 && (mmio_wr_addr & WIN_MASK) == HOST_BASE;
  wire rd_win = mmio_rd_bar == 2'd0 && (mmio_rd_addr & WIN_MASK) == HOST_BASE;

  localparam [2:0] S_IDLE = 3'd0, S_WR = 3'd1, S_B = 3'd2, S_RD = 3'd3, S_R = 3'd4, S_RESP = 3'd5;
  reg [2:0] st;
  reg ni_rd_busy;   // an NI read is in flight (its completion not yet taken)

  // ---- write beat: the first used 4-byte group -------------------------------------
  reg [3:0] grp;
  reg [4:0] groups;
  integer g;
  always @(*) begin
    grp = 4'd0;
    groups = 5'd0;
    for (g = 15; g >= 0; g = g - 1)
      if (mmio_wr_strb[g*4+:4] != 4'h0) begin
        grp = g[3:0];
        groups = groups + 5'd1;
      end
  end
  wire [3:0] grp_strb = mmio_wr_strb[grp*4+:4];
  wire [31:0] grp_data = mmio_wr_data[grp*32+:32];
  wire [ADDR_W-1:0] wr_off = mmio_wr_addr[ADDR_W-1:0] + {{(ADDR_W - 6) {1'b0}}, grp, 2'b00};

  // writes first; a window read also waits for the NI's read in flight
  wire take_wr = st == S_IDLE && mmio_wr_valid && wr_win;
  wire take_rd = st == S_IDLE && !(mmio_wr_valid && wr_win) && mmio_rd_valid && rd_win && !ni_rd_busy;
  assign mmio_wr_ready = wr_win ? take_wr : ni_mmio_wr_ready;
  assign ni_mmio_wr_valid = mmio_wr_valid && !wr_win;
  // an NI read waits while a window access is under way
  assign ni_mmio_rd_valid = mmio_rd_valid && !rd_win && st == S_IDLE;
  assign mmio_rd_ready = rd_win ? take_rd : (ni_mmio_rd_ready && st == S_IDLE);

  reg [31:0] r_data;
  reg r_err;
  assign m_axil_bready = st == S_B;
  assign m_axil_rready = st == S_R;
  assign mmio_rd_resp_valid = st == S_RESP || ni_mmio_rd_resp_valid;
  assign mmio_rd_resp_data = st == S_RESP ? {32'd0, r_data} : ni_mmio_rd_resp_data;
  assign mmio_rd_resp_err = st == S_RESP ? r_err : ni_mmio_rd_resp_err;
  assign ni_mmio_rd_resp_ready = st != S_RESP && mmio_rd_resp_ready;

  wire rd_ok = mmio_rd_len == 4'd4 && mmio_rd_addr[1:0] == 2'd0;
  wire [ADDR_W-1:0] rd_off = mmio_rd_addr[ADDR_W-1:0] | {{(ADDR_W - 1) {1'b0}}, !rd_ok};  // refused, counted

  always @(posedge clk) begin
    if (rst) begin
      st <= S_IDLE;
      ni_rd_busy <= 1'b0;
      m_axil_awvalid <= 1'b0;
      m_axil_wvalid <= 1'b0;
      m_axil_arvalid <= 1'b0;
    end else begin
      if (ni_mmio_rd_valid && ni_mmio_rd_ready) ni_rd_busy <= 1'b1;
      else if (ni_mmio_rd_resp_valid && ni_mmio_rd_resp_ready) ni_rd_busy <= 1'b0;
      case (st)
        S_IDLE: begin
          if (take_wr) begin
            m_axil_awvalid <= 1'b1;
            m_axil_wvalid <= 1'b1;
            m_axil_awaddr <= wr_off;
            m_axil_wdata <= grp_data;
            m_axil_wstrb <= (groups == 5'd1) ? grp_strb : 4'h0;
            st <= S_WR;
          end else if (take_rd) begin
            m_axil_arvalid <= 1'b1;
            m_axil_araddr <= rd_off;
            st <= S_RD;
          end
        end
        S_WR: begin
          if (m_axil_awready) m_axil_awvalid <= 1'b0;
          if (m_axil_wready) m_axil_wvalid <= 1'b0;
          if ((!m_axil_awvalid || m_axil_awready) && (!m_axil_wvalid || m_axil_wready)) st <= S_B;
        end
        S_B: if (m_axil_bvalid) st <= S_IDLE;  // an error was counted by the block
        S_RD: if (m_axil_arready) begin
          m_axil_arvalid <= 1'b0;
          st <= S_R;
        end
        S_R: if (m_axil_rvalid) begin
          r_data <= m_axil_rdata;
          r_err <= m_axil_rresp != 2'b00;
          st <= S_RESP;
        end
        S_RESP: if (mmio_rd_resp_ready) st <= S_IDLE;
        default: st <= S_IDLE;
      endcase
    end
  end
  wire unused_bresp = &{1'b0, m_axil_bresp};
endmodule
`default_nettype wire
