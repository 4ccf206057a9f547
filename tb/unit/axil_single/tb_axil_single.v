`default_nettype none
// tb_axil_single - randomised test of kolo_axil_single (Icarus).
//
// A driver offers random reads and writes (random gaps; a valid held until
// taken, its fields unchanged) to the master; a slave model with random
// AW/W/AR ready delays (AW and W independent), random response delays and
// random SLVERR answers keeps a 16-word memory. Scoreboard: each taken
// access gets exactly one m_done, of its kind, with the error the slave
// chose, and a read returns the golden memory's word (one access at a time,
// so the golden value is the memory at the take); a write changes exactly
// the bytes of its strobes in the slave (checked at the B beat). The slave
// side also checks the bus rules: a valid is never withdrawn and its
// payload never changes before its ready; no AW/W while a read is out and
// the other way round; no second access before the response.
// +seed=N replays a run (printed); +n=N accesses (default 4000).
// Ends with "PASS tb_axil_single" or "FAIL tb_axil_single: <reason>".
module tb_axil_single;
  localparam ADDR_W = 6;  // 16 words
  reg clk = 1'b0;
  reg rst = 1'b1;
  always #5 clk = ~clk;

  reg               s_valid = 1'b0;
  wire              s_ready;
  reg               s_write = 1'b0;
  reg  [ADDR_W-1:0] s_addr = 0;
  reg  [31:0]       s_wdata = 0;
  reg  [3:0]        s_wstrb = 0;
  wire              busy;
  wire              m_done, m_done_write, m_done_err;
  wire [31:0]       m_done_rdata;
  wire              awvalid, wvalid, arvalid, bready, rready;
  reg               awready = 1'b0, wready = 1'b0, arready = 1'b0;
  wire [ADDR_W-1:0] awaddr, araddr;
  wire [31:0]       wdata;
  wire [3:0]        wstrb;
  reg               bvalid = 1'b0, rvalid = 1'b0;
  reg  [1:0]        bresp = 2'b00, rresp = 2'b00;
  reg  [31:0]       rdata = 32'd0;

  kolo_axil_single #(
      .ADDR_W(ADDR_W)
  ) dut (
      .clk(clk), .rst(rst),
      .s_valid(s_valid), .s_ready(s_ready), .s_write(s_write), .s_addr(s_addr),
      .s_wdata(s_wdata), .s_wstrb(s_wstrb), .busy(busy),
      .m_done(m_done), .m_done_write(m_done_write), .m_done_err(m_done_err), .m_done_rdata(m_done_rdata),
      .m_axil_awvalid(awvalid), .m_axil_awready(awready), .m_axil_awaddr(awaddr),
      .m_axil_wvalid(wvalid), .m_axil_wready(wready), .m_axil_wdata(wdata), .m_axil_wstrb(wstrb),
      .m_axil_bvalid(bvalid), .m_axil_bready(bready), .m_axil_bresp(bresp),
      .m_axil_arvalid(arvalid), .m_axil_arready(arready), .m_axil_araddr(araddr),
      .m_axil_rvalid(rvalid), .m_axil_rready(rready), .m_axil_rdata(rdata), .m_axil_rresp(rresp)
  );

  integer seed, seed0, n_acc, errors = 0;  // seed0: as given (seed advances)
  reg [31:0] mem [0:15];      // the slave's memory
  reg [31:0] golden [0:15];   // what it must hold
  integer i;

  task fail(input [8*64-1:0] why);
    begin
      if (errors == 0) $display("FAIL tb_axil_single: %0s (t=%0t, seed %0d)", why, $time, seed0);
      errors = errors + 1;
    end
  endtask

  // ---- slave ----------------------------------------------------------------
  reg aw_got = 1'b0, w_got = 1'b0, ar_got = 1'b0;
  reg [ADDR_W-1:0] aw_a, ar_a;
  reg [31:0] w_d;
  reg [3:0] w_s;
  integer resp_wait = 0;
  reg bad_next = 1'b0;
  // the previous cycle's bus, for the hold rules
  reg p_aw = 0, p_w = 0, p_ar = 0, p_awr = 0, p_wr = 0, p_arr = 0;
  reg [ADDR_W-1:0] p_awaddr, p_araddr;
  reg [31:0] p_wdata;
  reg [3:0] p_wstrb;
  integer k;
  always @(posedge clk) begin
    if (!rst) begin
      if (p_aw && !p_awr && !(awvalid && awaddr == p_awaddr)) fail("AW withdrawn or changed before AWREADY");
      if (p_w && !p_wr && !(wvalid && wdata == p_wdata && wstrb == p_wstrb)) fail("W withdrawn or changed before WREADY");
      if (p_ar && !p_arr && !(arvalid && araddr == p_araddr)) fail("AR withdrawn or changed before ARREADY");
      if ((awvalid || wvalid) && (ar_got || arvalid)) fail("a write and a read out together");
      if (awvalid && aw_got) fail("a second AW before the B beat");
      if (wvalid && w_got) fail("a second W before the B beat");
      if (arvalid && ar_got) fail("a second AR before the R beat");
      if (!bready || !rready) fail("BREADY or RREADY low");
    end
    p_aw <= awvalid; p_w <= wvalid; p_ar <= arvalid;
    p_awr <= awready; p_wr <= wready; p_arr <= arready;
    p_awaddr <= awaddr; p_araddr <= araddr; p_wdata <= wdata; p_wstrb <= wstrb;

    if (rst) begin
      aw_got <= 1'b0; w_got <= 1'b0; ar_got <= 1'b0;
      awready <= 1'b0; wready <= 1'b0; arready <= 1'b0;
      bvalid <= 1'b0; rvalid <= 1'b0;
    end else begin
      if (awvalid && awready) begin aw_got <= 1'b1; aw_a <= awaddr; end
      if (wvalid && wready) begin w_got <= 1'b1; w_d <= wdata; w_s <= wstrb; end
      if (arvalid && arready) begin ar_got <= 1'b1; ar_a <= araddr; end
      awready <= ($random(seed) & 3) == 0;
      wready <= ($random(seed) & 3) == 0;
      arready <= ($random(seed) & 3) == 0;
      // a response beat lasts one cycle (the readies are 1)
      bvalid <= 1'b0;
      rvalid <= 1'b0;
      if (aw_got && w_got && !bvalid) begin
        if (resp_wait > 0) resp_wait = resp_wait - 1;
        else begin
          bad_next = ($random(seed) & 7) == 0;
          bresp <= bad_next ? 2'b10 : 2'b00;
          if (!bad_next)
            for (k = 0; k < 4; k = k + 1) if (w_s[k]) mem[aw_a[5:2]][k*8+:8] = w_d[k*8+:8];
          bvalid <= 1'b1;
          aw_got <= 1'b0;
          w_got <= 1'b0;
          resp_wait = $unsigned($random(seed)) % 4;
        end
      end
      if (ar_got && !rvalid) begin
        if (resp_wait > 0) resp_wait = resp_wait - 1;
        else begin
          bad_next = ($random(seed) & 7) == 0;
          rresp <= bad_next ? 2'b10 : 2'b00;
          rdata <= bad_next ? 32'hdead0000 : mem[ar_a[5:2]];
          rvalid <= 1'b1;
          ar_got <= 1'b0;
          resp_wait = $unsigned($random(seed)) % 4;
        end
      end
    end
  end

  // ---- driver and scoreboard ---------------------------------------------------
  integer taken = 0, done_n = 0, reads = 0, writes = 0, errs = 0;
  reg pend = 1'b0, pend_write;
  reg [ADDR_W-1:0] pend_addr;
  reg [31:0] pend_wdata;
  reg [3:0] pend_wstrb;
  always @(posedge clk) begin
    if (!rst) begin
      if (busy !== pend) fail("busy is not 'an access out'");
      if (m_done) begin
        done_n = done_n + 1;
        if (!pend) fail("m_done without an access taken");
        else begin
          if (m_done_write != pend_write) fail("m_done_write is not the access's kind");
          if (m_done_err != (pend_write ? bresp != 2'b00 : rresp != 2'b00)) fail("m_done_err is not the slave's answer");
          if (pend_write) begin
            writes = writes + 1;
            if (!m_done_err)
              for (k = 0; k < 4; k = k + 1) if (pend_wstrb[k]) golden[pend_addr[5:2]][k*8+:8] = pend_wdata[k*8+:8];
            for (k = 0; k < 16; k = k + 1) if (mem[k] !== golden[k]) fail("the slave's memory differs from the golden model after a write");
          end else begin
            reads = reads + 1;
            if (!m_done_err && m_done_rdata !== golden[pend_addr[5:2]]) fail("read data differs from the golden model");
          end
          if (m_done_err) errs = errs + 1;
          pend = 1'b0;
        end
      end
      if (s_valid && s_ready) begin
        if (pend) fail("an access taken while one is out");
        taken = taken + 1;
        pend = 1'b1;
        pend_write = s_write;
        pend_addr = s_addr;
        pend_wdata = s_wdata;
        pend_wstrb = s_wstrb;
        s_valid <= 1'b0;
      end
      // a new access (or none) once the last one is taken
      if ((!s_valid || s_ready) && taken < n_acc && ($random(seed) & 1)) begin
        s_valid <= 1'b1;
        s_write <= $random(seed);
        s_addr <= {$random(seed)} % 64;
        s_wdata <= $random(seed);
        s_wstrb <= $random(seed);
      end
    end
  end

  integer cyc = 0;
  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    seed0 = seed;
    if (!$value$plusargs("n=%d", n_acc)) n_acc = 4000;
    $display("tb_axil_single: seed %0d, %0d accesses", seed, n_acc);
    for (i = 0; i < 16; i = i + 1) begin
      mem[i] = 32'h01010101 * i;
      golden[i] = 32'h01010101 * i;
    end
    repeat (3) @(posedge clk);
    rst <= 1'b0;
    while ((taken < n_acc || pend) && cyc < n_acc * 40 && errors == 0) begin
      @(posedge clk);
      cyc = cyc + 1;
    end
    if (errors == 0 && (taken < n_acc || pend)) fail("the accesses did not all finish (hang)");
    if (errors == 0 && done_n != taken) fail("responses and accesses differ in number");
    if (errors == 0 && (reads == 0 || writes == 0 || errs == 0)) fail("a kind of access or error was never seen");
    if (errors == 0)
      $display("PASS tb_axil_single: %0d accesses (%0d reads, %0d writes, %0d errors) in %0d cycles, seed %0d",
               taken, reads, writes, errs, cyc, seed0);
    $finish;
  end
endmodule
`default_nettype wire
