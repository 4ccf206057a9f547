`default_nettype none
// tb_uart_regs - kolo_uart_regs (the ECP5 board's bridge from kolo_uart_host's
// accesses to the chip's register port) between a model of kolo_uart_host's
// request side and a model of the service block's host port (AXI4-Lite, a
// register file of the 0x8000-byte window with random AW/W/AR/B/R delays and
// random SLVERR answers), on Icarus. Seeded: +seed=N.
// Accesses, random: reads and writes in the window (BAR0 0x8000..0xffff),
// and outside it (below 0x8000, at 0x10000 and above: bad input); now and
// then the host model gives up on an access (s_req_abandon, as at its
// timeout) while it is out. Checks: every window access reaches the port
// exactly once at addr - 0x8000 (writes with their data, WSTRB 1111); its
// answer has the request's tag, the read data of the register file, and err
// exactly when the port answered SLVERR; an access outside the window never
// reaches the port and is answered with err (data 0) the cycle after it is
// taken; an abandoned access is not answered but dropped (one drop pulse);
// s_req_ready is low while an access is out; the port's handshakes are
// AXI's (AW and W held until taken, one access at a time).
// BUG=1 (no window check: addresses alias into the window) is a planted bug
// that must fail (make test-unit-uart-regs).
module tb_uart_regs #(
    parameter BUG = 0
);
  reg clk = 1'b0;
  always #5 clk = !clk;
  reg rst = 1'b1;
  integer seed = 1, rs = 1, errors = 0, cyc = 0;
  always @(posedge clk) cyc = cyc + 1;

  reg         s_req_valid = 1'b0, s_req_write = 1'b0, s_req_abandon = 1'b0;
  reg  [31:0] s_req_addr = 32'd0, s_req_wdata = 32'd0;
  reg  [7:0]  s_req_tag = 8'd0;
  wire        s_req_ready, m_rsp_valid, m_rsp_err, drop;
  wire [31:0] m_rsp_data;
  wire [7:0]  m_rsp_tag;
  wire        awvalid, wvalid, arvalid, bready, rready;
  wire [14:0] awaddr, araddr;
  wire [31:0] wdata;
  wire [3:0]  wstrb;
  reg         awready = 1'b0, wready = 1'b0, arready = 1'b0, bvalid = 1'b0, rvalid = 1'b0;
  reg  [1:0]  bresp = 2'b00, rresp = 2'b00;
  reg  [31:0] rdata = 32'd0;
  kolo_uart_regs #(.HOST_BASE(32'h8000), .ADDR_W(15), .BUG(BUG)) u_dut (
      .clk(clk), .rst(rst),
      .s_req_valid(s_req_valid), .s_req_ready(s_req_ready), .s_req_write(s_req_write),
      .s_req_addr(s_req_addr), .s_req_wdata(s_req_wdata), .s_req_tag(s_req_tag),
      .s_req_abandon(s_req_abandon),
      .m_rsp_valid(m_rsp_valid), .m_rsp_err(m_rsp_err), .m_rsp_data(m_rsp_data), .m_rsp_tag(m_rsp_tag),
      .drop(drop),
      .m_axil_awvalid(awvalid), .m_axil_awready(awready), .m_axil_awaddr(awaddr),
      .m_axil_wvalid(wvalid), .m_axil_wready(wready), .m_axil_wdata(wdata), .m_axil_wstrb(wstrb),
      .m_axil_bvalid(bvalid), .m_axil_bready(bready), .m_axil_bresp(bresp),
      .m_axil_arvalid(arvalid), .m_axil_arready(arready), .m_axil_araddr(araddr),
      .m_axil_rvalid(rvalid), .m_axil_rready(rready), .m_axil_rdata(rdata), .m_axil_rresp(rresp)
  );

  task fail(input [8*80-1:0] msg);
    begin
      if (errors < 10) $display("FAIL tb_uart_regs: cycle %0d: %0s", cyc, msg);
      errors = errors + 1;
    end
  endtask

  // ---- the service block's host port: a register file with random delays ------------------
  reg [31:0] regs[0:8191];
  integer k;
  initial for (k = 0; k < 8192; k = k + 1) regs[k] = k * 32'h9E3779B1;
  integer port_accesses = 0, port_slverr = 0;
  reg aw_got = 1'b0, w_got = 1'b0, ar_got = 1'b0;
  reg [14:0] a_q;
  reg [31:0] d_q;
  reg last_err = 1'b0;     // the error the port answered the last access with
  reg [31:0] last_rdata;
  reg [14:0] last_addr;
  reg last_write;
  always @(posedge clk) begin
    if (rst) begin
      awready <= 1'b0; wready <= 1'b0; arready <= 1'b0; bvalid <= 1'b0; rvalid <= 1'b0;
      aw_got = 1'b0; w_got = 1'b0; ar_got = 1'b0;
    end else begin
      // AXI rules on the master: held until taken
      if (awvalid && awready) begin
        if (aw_got) fail("port: a second AW before the B beat");
        aw_got = 1'b1; a_q = awaddr;
      end
      if (wvalid && wready) begin
        if (w_got) fail("port: a second W before the B beat");
        if (wstrb != 4'hF) fail("port: WSTRB is not 1111");
        w_got = 1'b1; d_q = wdata;
      end
      if (arvalid && arready) begin
        if (ar_got || aw_got || w_got) fail("port: AR while another access is out");
        ar_got = 1'b1; a_q = araddr;
      end
      if (bvalid && bready) begin
        bvalid <= 1'b0;
        aw_got = 1'b0; w_got = 1'b0;
      end
      if (rvalid && rready) begin
        rvalid <= 1'b0;
        ar_got = 1'b0;
      end
      awready <= awvalid && !aw_got && !(awvalid && awready) && $urandom(rs) % 3 == 0;
      wready <= wvalid && !w_got && !(wvalid && wready) && $urandom(rs) % 3 == 0;
      arready <= arvalid && !ar_got && !(arvalid && arready) && $urandom(rs) % 3 == 0;
      // answers after random delays (occasionally long: beyond a host's patience)
      if (aw_got && w_got && !bvalid && !(bvalid && bready) && $urandom(rs) % 4 == 0) begin
        bvalid <= 1'b1;
        last_err = $urandom(rs) % 6 == 0;
        bresp <= last_err ? 2'b10 : 2'b00;
        if (!last_err) regs[a_q[14:2]] = d_q;
        port_accesses = port_accesses + 1;
        if (last_err) port_slverr = port_slverr + 1;
        last_addr = a_q; last_write = 1'b1;
      end
      if (ar_got && !rvalid && !(rvalid && rready) && $urandom(rs) % 4 == 0) begin
        rvalid <= 1'b1;
        last_err = $urandom(rs) % 6 == 0;
        rresp <= last_err ? 2'b10 : 2'b00;
        last_rdata = last_err ? 32'hDEAD_BEEF : regs[a_q[14:2]];
        rdata <= last_rdata;
        port_accesses = port_accesses + 1;
        if (last_err) port_slverr = port_slverr + 1;
        last_addr = a_q; last_write = 1'b0;
      end
    end
  end

  // ---- the bridge's request side ----------------------------------------------------------------
  integer n, waited, n_win = 0, n_out = 0, n_abandon = 0, n_drops = 0, n_err = 0, acc0;
  reg [31:0] addr, wd, want;
  reg wr, in_win, got;
  always @(posedge clk) if (!rst && drop) n_drops = n_drops + 1;
  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    rs = seed;
    $display("tb_uart_regs: seed %0d%s", seed, BUG == 1 ? " (planted bug: no window check)" : "");
    repeat (4) @(posedge clk);
    rst <= 1'b0;
    @(posedge clk);
    for (n = 0; n < 3000; n = n + 1) begin
      wr = $urandom(rs) % 2;
      case ($urandom(rs) % 8)
        0: addr = {$urandom(rs) % 32'h2000, 2'b00};                 // below the window (the NI's space)
        1: addr = 32'h10000 + {$urandom(rs) % 32'h4000, 2'b00};    // above it
        2: addr = {$urandom(rs), 2'b00};                             // anywhere
        default: addr = 32'h8000 + {$urandom(rs) % 32'h2000, 2'b00};
      endcase
      in_win = addr >= 32'h8000 && addr < 32'h10000;
      wd = $urandom(rs);
      want = in_win ? regs[addr[14:2]] : 32'd0;
      acc0 = port_accesses;
      // offer; ready must be high (nothing out)
      s_req_valid <= 1'b1; s_req_write <= wr; s_req_addr <= addr; s_req_wdata <= wd;
      s_req_tag <= s_req_tag + 8'd1;
      @(posedge clk);
      if (!s_req_ready) fail("s_req_ready low with nothing out");
      s_req_valid <= 1'b0;
      // wait for the answer; give up now and then (as the bridge's timeout)
      got = 1'b0;
      waited = 0;
      while (!got && waited < 200) begin
        @(posedge clk);
        waited = waited + 1;
        if (m_rsp_valid) begin
          got = 1'b1;
          if (m_rsp_tag != s_req_tag) fail("answer with another request's tag");
          if (!in_win) begin
            if (!m_rsp_err || m_rsp_data != 32'd0) fail("outside the window: not answered with an error");
            if (waited != 1) fail("outside the window: not answered the cycle after");
          end else begin
            if (m_rsp_err != last_err) fail("err differs from the port's answer");
            if (last_addr != addr[14:0] || last_write != wr) fail("the port saw another address or kind");
            if (!wr && !m_rsp_err && m_rsp_data != want) fail("read data differs from the register");
            if (m_rsp_err) n_err = n_err + 1;
          end
        end else if (in_win && waited == 2 && $urandom(rs) % 10 == 0) begin
          // the host gives up: the access runs on, its answer must be dropped
          s_req_abandon <= 1'b1;
          @(posedge clk);
          s_req_abandon <= 1'b0;
          n_abandon = n_abandon + 1;
          while (!s_req_ready) begin
            @(posedge clk);
            if (m_rsp_valid) fail("an abandoned access was answered");
          end
          got = 1'b1;
        end else if (s_req_ready && !m_rsp_valid && !got && waited > 1 && in_win && port_accesses == acc0) begin
          fail("s_req_ready high while an access is out");
        end
      end
      if (!got) fail("no answer in 200 cycles");
      if (in_win) n_win = n_win + 1;
      else n_out = n_out + 1;
      if (in_win && port_accesses != acc0 + 1) fail("a window access did not reach the port exactly once");
      if (!in_win && port_accesses != acc0) fail("an access outside the window reached the port");
      repeat ($urandom(rs) % 3) @(posedge clk);
    end
    repeat (10) @(posedge clk);
    if (n_drops != n_abandon) begin
      fail("drop pulses differ from the abandoned accesses");
      $display("  drops %0d, abandoned %0d", n_drops, n_abandon);
    end
    if (errors == 0)
      $display("PASS tb_uart_regs: %0d window accesses (%0d SLVERR, %0d abandoned), %0d outside answered ERROR",
               n_win, n_err, n_abandon, n_out);
    $finish;
  end
endmodule
`default_nettype wire
