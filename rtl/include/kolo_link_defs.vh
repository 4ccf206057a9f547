// kolo_link_defs.vh - block types and field helpers of the kolo link layer.
// Include inside a module body. docs/link.md is the authoritative description;
// tb/common/kolo_linkref.h mirrors it for C.
/* verilator lint_off UNUSEDPARAM */
// Control block types: words of the extended Hamming [8,4,4] code, so that
// any two differ in at least four bits.
localparam [7:0] KOLO_BLK_IDLE = 8'h1E;
localparam [7:0] KOLO_BLK_CC   = 8'h2D;
localparam [7:0] KOLO_BLK_INIT = 8'h4B;
localparam [7:0] KOLO_BLK_CTRL = 8'h55;
localparam [7:0] KOLO_BLK_SOF  = 8'h66;
localparam [1:0] KOLO_SYNC_DATA = 2'b01;
localparam [1:0] KOLO_SYNC_CTRL = 2'b10;
/* verilator lint_on UNUSEDPARAM */

// SOF payload: type, sequence number, VC, data blocks, CRC-32C. The frame CRC
// covers the data blocks and then this word with crc = 0.
function automatic [63:0] kolo_sof_word(input [SEQ_W-1:0] seq, input [1:0] vc,
                                        input [5:0] nblk, input [31:0] crc);
  reg [11:0] seq12;
  begin
    seq12 = 12'd0;
    seq12[SEQ_W-1:0] = seq;
    kolo_sof_word = {crc, 4'd0, nblk, vc, seq12, KOLO_BLK_SOF};
  end
endfunction
