`default_nettype none
// kolo_sp_div - 32-bit divider of kolo_sp_core (DIV, DIVU, REM, REMU):
// restoring division on the magnitudes, two quotient bits per cycle, and
// leading zero bytes of the dividend skipped a byte per cycle while the
// partial remainder is still zero (their quotient bits are zero).
//
// start (one cycle, operands valid in that cycle) loads the operands; each
// following cycle either skips 8 dividend bits or takes 2 restoring steps;
// done pulses for one cycle with result in the cycle after the last one:
// an instruction takes 2 + k + (32 - 8k) / 2 cycles with k leading zero
// bytes skipped: 18 (dividend >= 2^24), 15, 12, 9 (dividend < 256), 6
// (dividend 0); the magnitude counts for signed operands. A start while busy
// restarts. Results as the RISC-V M extension defines them: x / 0 = all
// ones (signed and unsigned), x % 0 = x; the signed overflow -2^31 / -1 =
// -2^31 and -2^31 % -1 = 0 come out of the magnitudes (2^31 / 1, no sign
// change) without a special case.
module kolo_sp_div (
    input  wire        clk,
    input  wire        rst,
    input  wire        start,
    input  wire        is_signed,
    input  wire        want_rem,
    input  wire [31:0] dividend,
    input  wire [31:0] divisor,
    output reg         done,
    output wire [31:0] result
);
  reg busy;
  reg [5:0] left;        // dividend bits not yet consumed
  reg [31:0] quot;       // dividend magnitude shifting out, quotient bits shifting in
  reg [31:0] rem;        // partial remainder
  reg [31:0] dsor;       // divisor magnitude
  reg neg_quot, neg_rem, by_zero, rem_sel;
  reg [31:0] dend_orig;

  wire [31:0] dividend_mag = is_signed && dividend[31] ? 32'd0 - dividend : dividend;
  wire [31:0] divisor_mag = is_signed && divisor[31] ? 32'd0 - divisor : divisor;

  // two restoring steps
  wire [32:0] sh1 = {rem, quot[31]};
  wire [32:0] tr1 = sh1 - {1'b0, dsor};
  wire fit1 = !tr1[32];
  wire [31:0] rem1 = fit1 ? tr1[31:0] : sh1[31:0];
  wire [32:0] sh2 = {rem1, quot[30]};
  wire [32:0] tr2 = sh2 - {1'b0, dsor};
  wire fit2 = !tr2[32];
  wire [31:0] rem2 = fit2 ? tr2[31:0] : sh2[31:0];
  wire skip = rem == 32'd0 && quot[31:24] == 8'd0 && left >= 6'd8;
  wire [5:0] left_next = skip ? left - 6'd8 : left - 6'd2;

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      done <= 1'b0;
    end else begin
      done <= busy && left_next == 6'd0;
      if (start) busy <= 1'b1;
      else if (busy && left_next == 6'd0) busy <= 1'b0;
    end
    if (start) begin
      left <= 6'd32;
      quot <= dividend_mag;
      rem <= 32'd0;
      dsor <= divisor_mag;
      neg_quot <= is_signed && (dividend[31] != divisor[31]);
      neg_rem <= is_signed && dividend[31];
      by_zero <= divisor == 32'd0;
      rem_sel <= want_rem;
      dend_orig <= dividend;
    end else if (busy) begin
      left <= left_next;
      if (skip) begin
        quot <= {quot[23:0], 8'd0};
      end else begin
        rem <= rem2;
        quot <= {quot[29:0], fit1, fit2};
      end
    end
  end

  wire [31:0] res_mag = rem_sel ? rem : quot;
  wire [31:0] res_signed = (rem_sel ? neg_rem : neg_quot) ? 32'd0 - res_mag : res_mag;
  assign result = by_zero ? (rem_sel ? dend_orig : 32'hFFFF_FFFF) : res_signed;
endmodule
`default_nettype wire
