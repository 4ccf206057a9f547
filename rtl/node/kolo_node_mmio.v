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
// the endpoint side sees ready only for the beat it hands over. The
// service block's side is the common single-access master kolo_axil_single.
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
  localparam [31:0] WIN_MASK = ~((32'd1 << ADDR_W) - 32'd1);
  wire wr_win = mmio_wr_bar == 2'd0 && (mmio_wr_addr & WIN_MASK) == HOST_BASE;
  wire rd_win = mmio_rd_bar == 2'd0 && (mmio_rd_addr & WIN_MASK) == HOST_BASE;

  localparam [1:0] S_IDLE = 2'd0, S_BUSY = 2'd1, S_RESP = 2'd2;
  reg [1:0] st;
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
  assign mmio_rd_resp_valid = st == S_RESP || ni_mmio_rd_resp_valid;
  assign mmio_rd_resp_data = st == S_RESP ? {32'd0, r_data} : ni_mmio_rd_resp_data;
  assign mmio_rd_resp_err = st == S_RESP ? r_err : ni_mmio_rd_resp_err;
  assign ni_mmio_rd_resp_ready = st != S_RESP && mmio_rd_resp_ready;

  wire rd_ok = mmio_rd_len == 4'd4 && mmio_rd_addr[1:0] == 2'd0;
  wire [ADDR_W-1:0] rd_off = mmio_rd_addr[ADDR_W-1:0] | {{(ADDR_W - 1) {1'b0}}, !rd_ok};  // refused, counted

  // the window's access on the service block's port
  wire resp;
  wire resp_write;
  wire resp_err;
  wire [31:0] resp_rdata;
  /* verilator lint_off PINCONNECTEMPTY */  // st follows the access (IDLE: free; BUSY: out)
  kolo_axil_single #(
      .ADDR_W(ADDR_W)
  ) u_axil (
      .clk           (clk),
      .rst           (rst),
      .s_valid       (take_wr || take_rd),
      .s_ready       (),
      .s_write       (take_wr),
      .s_addr        (take_wr ? wr_off : rd_off),
      .s_wdata       (grp_data),
      .s_wstrb       ((groups == 5'd1) ? grp_strb : 4'h0),
      .busy          (),
      .m_done        (resp),
      .m_done_write  (resp_write),
      .m_done_err    (resp_err),
      .m_done_rdata  (resp_rdata),
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
      st <= S_IDLE;
      ni_rd_busy <= 1'b0;
    end else begin
      if (ni_mmio_rd_valid && ni_mmio_rd_ready) ni_rd_busy <= 1'b1;
      else if (ni_mmio_rd_resp_valid && ni_mmio_rd_resp_ready) ni_rd_busy <= 1'b0;
      case (st)
        S_IDLE: if (take_wr || take_rd) st <= S_BUSY;
        S_BUSY: if (resp) begin
          // a write's error was counted by the block; a read's goes to the host
          r_data <= resp_rdata;
          r_err <= resp_err;
          st <= resp_write ? S_IDLE : S_RESP;
        end
        S_RESP: if (mmio_rd_resp_ready) st <= S_IDLE;
        default: st <= S_IDLE;
      endcase
    end
  end
endmodule
`default_nettype wire
