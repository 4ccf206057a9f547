// kolo_link_defs.vh - block types and field helpers of the kolo link layer.
// Include inside a module body. docs/link.md is the authoritative description;
// tb/common/kolo_linkref.h mirrors it for C.
/* verilator lint_off UNUSEDPARAM */
// Control block types: words of the extended Hamming [8,4,4] code, so that
// any two differ in at least four bits.
localparam [7:0] KOLO_BLK_IDLE  = 8'h1E;
localparam [7:0] KOLO_BLK_CC    = 8'h2D;
localparam [7:0] KOLO_BLK_INIT  = 8'h4B;
localparam [7:0] KOLO_BLK_CTRL  = 8'h55;
localparam [7:0] KOLO_BLK_EOF   = 8'h78;
localparam [7:0] KOLO_BLK_ABORT = 8'h33;
// ABORT has an empty body and a CRC-8 like IDLE and CC (0x14 over {48'd0, 8'h33})
localparam [63:0] KOLO_ABORT_PAYLOAD = 64'h1400_0000_0000_0033;
localparam [1:0] KOLO_SYNC_DATA = 2'b01;
localparam [1:0] KOLO_SYNC_CTRL = 2'b10;
/* verilator lint_on UNUSEDPARAM */

// EOF payload (the block after a frame's data blocks): type, sequence number,
// VC, data blocks, CRC-32C. The frame CRC covers the data blocks and then
// this word with crc = 0.
function automatic [63:0] kolo_eof_word(input [SEQ_W-1:0] seq, input [1:0] vc,
                                        input [5:0] nblk, input [31:0] crc);
  reg [11:0] seq12;
  begin
    seq12 = 12'd0;
    seq12[SEQ_W-1:0] = seq;
    kolo_eof_word = {crc, 4'd0, nblk, vc, seq12, KOLO_BLK_EOF};
  end
endfunction
