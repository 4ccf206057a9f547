`default_nettype none
// kolo_crc32c_64 (blind mutant) - a CRC cell that ignores its data, for the
// negative run of the link proof (`formal_link.sh -blind-crc`, with the
// harness channel, which may flip payload bits behind a
// valid sync header). With it every frame "passes" its CRC check, so the
// proof must fail: this shows the ordering assertions can catch a wrong
// delivery and that the real CRC is what stops one.
module kolo_crc32c_64 (
    input  wire [31:0] crc_in,
    input  wire [63:0] data,
    output wire [31:0] crc_out
);
  assign crc_out = crc_in;
  wire unused = &{1'b0, data};
endmodule
`default_nettype wire
