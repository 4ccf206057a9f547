// kolo_crc32c_masks.vh - the CRC-32C step (rtl/link/kolo_crc32c_64.v) as
// masks for flat XOR networks, computed at elaboration. Include inside a
// module body.
//
// kolo_crc32c_step(c, d): one 64-bit step of the raw reflected CRC-32C
// register (polynomial 0x82F63B78), data bit 0 first.
// kolo_crc32c_mask_c(n, i): the crc_in bits that output bit i depends on after
// n steps (whatever the data); kolo_crc32c_mask_d(m, i): the bits of a data
// word that output bit i depends on when m more steps (over other words)
// follow it. The step is linear over GF(2), so output bit i of n chained steps
// is the XOR of (crc_in & mask_c(n, i)) and, for each data word w of the n,
// (word & mask_d(steps after w, i)).
/* verilator lint_off UNUSEDSIGNAL */
function automatic [31:0] kolo_crc32c_step(input [31:0] c, input [63:0] d);
  integer k;
  reg [31:0] r;
  begin
    r = c;
    for (k = 0; k < 64; k = k + 1) r = {1'b0, r[31:1]} ^ ((r[0] ^ d[k]) ? 32'h82F6_3B78 : 32'h0);
    kolo_crc32c_step = r;
  end
endfunction

function automatic [31:0] kolo_crc32c_mask_c(input integer n, input integer i);
  integer j, s;
  reg [31:0] r, m;
  begin
    m = 32'd0;
    for (j = 0; j < 32; j = j + 1) begin
      r = 32'd1 << j;
      for (s = 0; s < n; s = s + 1) r = kolo_crc32c_step(r, 64'd0);
      m[j] = r[i];
    end
    kolo_crc32c_mask_c = m;
  end
endfunction

function automatic [63:0] kolo_crc32c_mask_d(input integer m, input integer i);
  integer k, s;
  reg [31:0] r;
  reg [63:0] mask;
  begin
    mask = 64'd0;
    for (k = 0; k < 64; k = k + 1) begin
      r = kolo_crc32c_step(32'd0, 64'd1 << k);
      for (s = 0; s < m; s = s + 1) r = kolo_crc32c_step(r, 64'd0);
      mask[k] = r[i];
    end
    kolo_crc32c_mask_d = mask;
  end
endfunction
/* verilator lint_on UNUSEDSIGNAL */
