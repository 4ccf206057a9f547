`default_nettype none
// tb_ni_nidx - kolo_ni_nidx against x + X*(y + Y*z) (Icarus): every torus
// size (all 4096 values of dim_m1) and, for each, every id inside it (idx
// and ok: 2 515 456 ids over all sizes) and every id at most one past a
// ring's end in y and z, any x (ok: the compares' edges). Sixteen instances
// (x = 0..15) take one (z, y) per step. Each size is set as the module's
// rule allows and no later: in reset, held 2 cycles; then all its ids are
// checked in the first cycle out of reset (a long clock period: idx is
// combinational in id). Tables left from the previous size (sizes go 0, 1,
// 2, ...: X, Y or Z differs) give wrong indices whenever Y or Z > 1: the
// planted bug BUG_STALE (the tables one cycle late) must fail. Prints the
// counts.
module tb_ni_nidx;
  parameter BUG_STALE = 0;
  reg clk = 1'b0;
  reg rst = 1'b1;
  reg [11:0] dim_m1 = 12'd0;
  reg [3:0] z = 4'd0, y = 4'd0;
  wire [11:0] idx[0:15];
  wire ok[0:15];
  genvar g;
  generate
    for (g = 0; g < 16; g = g + 1) begin : g_x
      kolo_ni_nidx #(
          .BUG_STALE(BUG_STALE)
      ) u_dut (
          .clk(clk), .rst(rst), .id({z, y, g[3:0]}), .dim_m1(dim_m1), .idx(idx[g]), .ok(ok[g])
      );
    end
  endgenerate
  always #1000 clk = !clk;  // a size's walk (<= 289 steps of 1) fits in its first cycle

  integer d, k, x, nx, ny, nz, wy, wz, want, errs, n_ok, n_idx, n_first_vis;
  reg want_ok;
  initial begin
    errs = 0;
    n_ok = 0;
    n_idx = 0;
    n_first_vis = 0;
    for (d = 0; d < 4096; d = d + 1) begin
      // the size changes in reset, which lasts 2 cycles past it
      @(negedge clk);
      rst = 1'b1;
      dim_m1 = d[11:0];
      @(negedge clk);
      @(negedge clk);
      rst = 1'b0;
      nx = dim_m1[3:0] + 1;
      ny = dim_m1[7:4] + 1;
      nz = dim_m1[11:8] + 1;
      // (z, y) from the largest node down, wrapping through 0..Z x 0..Y (one past each end;
      // a ring of 16 has none: 4-bit coordinates)
      wy = (ny < 16) ? ny + 1 : 16;
      wz = (nz < 16) ? nz + 1 : 16;
      for (k = 0; k < wy * wz; k = k + 1) begin
        z = (nz - 1 - k / wy + wz) % wz;
        y = (ny - 1 - k % wy + wy) % wy;
        #1;
        for (x = 0; x < 16; x = x + 1) begin
          want_ok = x < nx && y < ny && z < nz;
          want = x + nx * (y + ny * z);
          n_ok = n_ok + 1;
          if (ok[x] !== want_ok) begin
            errs = errs + 1;
            if (errs <= 10)
              $display("FAIL: dim_m1 %h id %h: ok %b, want %b", dim_m1, {z, y, x[3:0]}, ok[x], want_ok);
          end
          if (want_ok) begin
            n_idx = n_idx + 1;
            if (ny > 1 || nz > 1) n_first_vis = n_first_vis + 1;
            if (idx[x] !== want[11:0]) begin
              errs = errs + 1;
              if (errs <= 10)
                $display("FAIL: dim_m1 %h id %h (step %0d of the size): idx %0d, want %0d",
                         dim_m1, {z, y, x[3:0]}, k, idx[x], want);
            end
          end
        end
      end
    end
    $display("tb_ni_nidx: %0d sizes, %0d (size, id) pairs checked for ok, %0d indices (%0d of them in tori with Y or Z above 1), each in the size's first cycle out of reset",
             4096, n_ok, n_idx, n_first_vis);
    if (errs == 0) $display("PASS tb_ni_nidx");
    else $display("FAIL tb_ni_nidx: %0d errors", errs);
    $finish;
  end
endmodule
`default_nettype wire
