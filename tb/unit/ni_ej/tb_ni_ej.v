`default_nettype none
// tb_ni_ej - kolo_ni_ej (the NI's ejection buffers) against a reference (Icarus).
// A router model sends packets on the 4 VCs against the ejection credits: 2 to 6
// flits, one in six cut short (a tail before its declared length: a bad verdict),
// flits of different VCs interleaved, random gaps or back to back (bursts), so that
// packets are offered both once whole and from the cycle their tail arrives (the
// tail bypass). Consumers per vnet take flits with random ready. Checked: each vnet's
// packets in order per VC, every flit's data, the verdict (pk_ok) with the head, and
// that a packet never runs dry once its head is out (pk_valid stays up until its
// tail). Plusargs: +seed=N, +n=N packets.
// A planted bug (BUG_NO_SKIP: the verdict queued for a packet taken at its tail is
// not dropped) must be caught: make test-unit-ni-ej.
module tb_ni_ej;
  parameter DEPTH = 8;
  parameter BUG_NO_SKIP = 0;
  `include "kolo_defs.vh"
  reg clk = 1'b0, rst = 1'b1;
  always #2 clk = !clk;

  reg ej_valid;
  reg [67:0] ej_flit;
  wire ej_credit_valid;
  wire [1:0] ej_credit_vc;
  wire [1:0] pk_valid, pk_ok, stat_pkt;
  wire [131:0] pk_flit;
  reg [1:0] pk_ready;
  kolo_ni_ej #(.DEPTH(DEPTH), .BUG_NO_SKIP(BUG_NO_SKIP)) dut (
      .clk(clk), .rst(rst), .ej_valid(ej_valid), .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid), .ej_credit_vc(ej_credit_vc),
      .pk_valid(pk_valid), .pk_flit(pk_flit), .pk_ok(pk_ok), .pk_ready(pk_ready),
      .stat_pkt(stat_pkt)
  );

  integer seed, seed0, n_pkts, errors, i, v, sent_pkts, got_pkts, cyc, burst;
  // per VC: the packet being sent (flits total, declared len, next flit, sequence number)
  integer s_tot[0:3], s_len[0:3], s_pos[0:3], s_seq[0:3], credits[0:3];
  // expected per VC: sequence numbers of packets sent, their flit counts and verdicts
  integer e_tot[0:3][0:4095];
  reg e_ok[0:3][0:4095];
  integer e_wr[0:3], e_rd[0:3];
  // consumer per vnet: inside a packet (VC, sequence, flit index)
  reg in_pkt[0:1];
  integer c_vc[0:1], c_seq[0:1], c_pos[0:1], c_tot[0:1];
  reg [63:0] d;
  reg [1:0] cand;
  integer nc, pickv, n, k;
  // coverage: heads taken from the tail bypass and from whole packets
  integer n_byp = 0, n_whole = 0;
  always @(posedge clk)
    if (!rst) begin
      if (dut.g_vnet[0].fire && dut.g_vnet[0].head) begin
        if (dut.g_vnet[0].byp) n_byp = n_byp + 1; else n_whole = n_whole + 1;
      end
      if (dut.g_vnet[1].fire && dut.g_vnet[1].head) begin
        if (dut.g_vnet[1].byp) n_byp = n_byp + 1; else n_whole = n_whole + 1;
      end
    end

  // flit data: {vc, seq, index} in bits 63:36 (above the header's len field 34:29)
  function [63:0] fdata(input integer fv, input integer fs, input integer fi, input integer flen);
    fdata = {2'(fv), 16'(fs), 8'(fi), 2'd0, 1'b0, 6'(flen), 29'd0};
  endfunction

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("n=%d", n_pkts)) n_pkts = 3000;
    seed0 = seed;
    errors = 0;
    sent_pkts = 0;
    got_pkts = 0;
    ej_valid = 1'b0;
    ej_flit = 68'd0;
    pk_ready = 2'b00;
    burst = 0;
    for (v = 0; v < 4; v = v + 1) begin
      s_tot[v] = 0; s_pos[v] = 0; s_seq[v] = 0; credits[v] = DEPTH; e_wr[v] = 0; e_rd[v] = 0;
    end
    for (n = 0; n < 2; n = n + 1) in_pkt[n] = 1'b0;
    repeat (3) @(posedge clk);
    rst = 1'b0;
    for (cyc = 0; cyc < 200000 && (got_pkts < n_pkts); cyc = cyc + 1) begin
      // ---- drive (before the edge) ----
      @(negedge clk);
      ej_valid = 1'b0;
      // start packets
      for (v = 0; v < 4; v = v + 1)
        if (s_tot[v] == 0 && sent_pkts < n_pkts && $urandom(seed) % 4 == 0) begin
          s_len[v] = $urandom(seed) % 5;
          s_tot[v] = s_len[v] + 2;
          if ($urandom(seed) % 6 == 0) s_tot[v] = 1 + $urandom(seed) % (s_len[v] + 1);  // cut short
          s_pos[v] = 0;
          e_tot[v][s_seq[v] % 4096] = s_tot[v];
          e_ok[v][s_seq[v] % 4096] = s_tot[v] == s_len[v] + 2;
          sent_pkts = sent_pkts + 1;
        end
      // one flit of a VC with a packet in progress and a credit: bursts keep sending
      if (burst > 0) burst = burst - 1;
      else if ($urandom(seed) % 8 == 0) burst = $urandom(seed) % 12;
      nc = 0;
      for (v = 0; v < 4; v = v + 1) if (s_tot[v] != 0 && credits[v] > 0) nc = nc + 1;
      if (nc > 0 && (burst > 0 || $urandom(seed) % 3 != 0)) begin
        k = $urandom(seed) % nc;
        pickv = -1;
        for (v = 0; v < 4; v = v + 1)
          if (s_tot[v] != 0 && credits[v] > 0) begin
            if (k == 0 && pickv < 0) pickv = v;
            k = k - 1;
          end
        v = pickv;
        ej_valid = 1'b1;
        ej_flit = {2'(v), s_pos[v] == 0, s_pos[v] == s_tot[v] - 1, fdata(v, s_seq[v], s_pos[v], s_len[v])};
        credits[v] = credits[v] - 1;
        s_pos[v] = s_pos[v] + 1;
        if (s_pos[v] == s_tot[v]) begin
          s_tot[v] = 0;
          s_seq[v] = s_seq[v] + 1;
        end
      end
      pk_ready = {$urandom(seed) % 4 != 0, $urandom(seed) % 4 != 0};
      // ---- sample (after the inputs settle, before the edge) ----
      #1;
      if (ej_credit_valid) credits[ej_credit_vc] = credits[ej_credit_vc] + 1;
      for (n = 0; n < 2; n = n + 1) begin
        if (in_pkt[n] && !pk_valid[n]) begin
          $display("FAIL: vnet %0d: packet VC %0d seq %0d ran dry after flit %0d (cycle %0d)", n, c_vc[n],
                   c_seq[n], c_pos[n], cyc);
          errors = errors + 1;
        end
        if (pk_valid[n] && pk_ready[n]) begin
          d = pk_flit[n*66+:64];
          if (!in_pkt[n]) begin
            if (!pk_flit[n*66+65]) begin
              $display("FAIL: vnet %0d: a packet starts without a head (cycle %0d)", n, cyc);
              errors = errors + 1;
            end
            c_vc[n] = d[63:62];
            if (c_vc[n] / 2 != n) begin
              $display("FAIL: vnet %0d: packet of VC %0d", n, c_vc[n]);
              errors = errors + 1;
            end
            c_seq[n] = d[61:46];
            if (c_seq[n] != e_rd[c_vc[n]] % 65536) begin
              $display("FAIL: VC %0d: packet %0d out, %0d expected (cycle %0d)", c_vc[n], c_seq[n],
                       e_rd[c_vc[n]], cyc);
              errors = errors + 1;
            end
            c_tot[n] = e_tot[c_vc[n]][e_rd[c_vc[n]] % 4096];
            if (pk_ok[n] !== e_ok[c_vc[n]][e_rd[c_vc[n]] % 4096]) begin
              $display("FAIL: VC %0d packet %0d: verdict %0d, expected %0d (cycle %0d)", c_vc[n], c_seq[n],
                       pk_ok[n], e_ok[c_vc[n]][e_rd[c_vc[n]] % 4096], cyc);
              errors = errors + 1;
            end
            e_rd[c_vc[n]] = e_rd[c_vc[n]] + 1;
            c_pos[n] = 0;
            in_pkt[n] = 1'b1;
          end
          if (d[63:62] != c_vc[n] || d[61:46] != c_seq[n] || d[45:38] != c_pos[n] ||
              pk_flit[n*66+64] != (c_pos[n] == c_tot[n] - 1)) begin
            $display("FAIL: vnet %0d: flit %0d of VC %0d packet %0d wrong: data %h tail %0d (cycle %0d)", n,
                     c_pos[n], c_vc[n], c_seq[n], d, pk_flit[n*66+64], cyc);
            errors = errors + 1;
          end
          c_pos[n] = c_pos[n] + 1;
          if (pk_flit[n*66+64]) begin
            in_pkt[n] = 1'b0;
            got_pkts = got_pkts + 1;
          end
        end
      end
      if (errors > 5) begin
        $display("FAIL tb_ni_ej: %0d errors (seed %0d%s)", errors, seed0, BUG_NO_SKIP ? ", planted bug" : "");
        $finish;
      end
    end
    if (got_pkts < n_pkts) begin
      $display("FAIL: %0d of %0d packets out", got_pkts, n_pkts);
      errors = errors + 1;
    end
    if (n_byp < n_pkts / 20 || n_whole < n_pkts / 20) begin
      $display("FAIL: coverage: %0d heads taken at their tail, %0d whole", n_byp, n_whole);
      errors = errors + 1;
    end
    if (errors == 0)
      $display("PASS tb_ni_ej: %0d packets on 4 VCs, DEPTH %0d, %0d heads taken at their tail, %0d whole (seed %0d)",
               got_pkts, DEPTH, n_byp, n_whole, seed0);
    else
      $display("FAIL tb_ni_ej: %0d errors (seed %0d%s)", errors, seed0, BUG_NO_SKIP ? ", planted bug" : "");
    $finish;
  end
endmodule
`default_nettype wire
