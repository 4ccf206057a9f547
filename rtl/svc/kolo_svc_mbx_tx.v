`default_nettype none
// kolo_svc_mbx_tx - transmit side of the management mailbox: MBX_TX_DATA
// appends 32-bit words (up to 64, in distributed RAM), MBX_TX_SEND sends
// them as one MGMT packet on mgmt_tx_* (valid/ready stream of
// {head, tail, data[63:0]} flits): header flit 0 (dst, src = node_id, op 11
// MGMT, vnet 1, len = ceil(words/2), route state rs), header flit 1 (bits
// 7:0 = word count), then the payload, word 2k in bits 31:0 and 2k+1 in
// 63:32 of payload flit k (63:32 zero past the last word).
// dst and rs are taken at the send. busy rises with the send and falls when
// the tail flit is taken; then count adds one and the words restart at 0.
// errors counts refused appends (busy, or 64 words already) and refused
// sends (busy, or no words). mgmt_tx_valid stays high from the first flit
// to the tail; the flit changes only when taken.
module kolo_svc_mbx_tx (
    input  wire         clk,
    input  wire         rst,
    input  wire [11:0]  node_id,
    input  wire         data_we,
    input  wire [31:0]  data_in,
    input  wire         send,
    input  wire [11:0]  dst,
    input  wire [22:0]  rs,
    output reg          busy,
    output reg  [6:0]   words,
    output reg  [31:0]  count,
    output reg  [31:0]  errors,
    output wire         mgmt_tx_valid,
    input  wire         mgmt_tx_ready,
    output wire [65:0]  mgmt_tx_flit
);
  `include "kolo_defs.vh"
  localparam [63:0] OP_MGMT = 64'd11;  // docs/packet-format.md section 7
  localparam [6:0] MAX_WORDS = 7'd64;

  reg [31:0] w_lo[0:31], w_hi[0:31];  // even and odd words
  reg [11:0] snd_dst;
  reg [22:0] snd_rs;
  reg [5:0] fidx;                     // flit being offered: 0, 1 headers, 2.. payload

  wire [5:0] nflits = words[6:1] + {5'd0, words[0]};   // payload flits, 1..32
  wire [4:0] pk = fidx[4:0] - 5'd2;                    // payload flit number
  wire hi_valid = {1'b0, pk, 1'b1} < words;     // word 2k+1 was appended
  // header flit 0: MGMT on the response virtual network (vnet 1), not ordered
  wire [63:0] h0 = {52'd0, snd_dst} << KOLO_H0_DST_LO | {52'd0, node_id} << KOLO_H0_SRC_LO |
                   OP_MGMT << KOLO_H0_OP_LO | 64'd1 << KOLO_H0_VNET | {58'd0, nflits} << KOLO_H0_LEN_LO |
                   {41'd0, snd_rs} << KOLO_H0_RS_LO;
  wire [63:0] h1 = {56'd0, {1'b0, words}};
  wire [63:0] pay = {hi_valid ? w_hi[pk] : 32'd0, w_lo[pk]};
  wire is_tail = fidx == nflits + 6'd1;
  assign mgmt_tx_valid = busy;
  assign mgmt_tx_flit[KOLO_FLIT_HEAD] = fidx == 6'd0;
  assign mgmt_tx_flit[KOLO_FLIT_TAIL] = is_tail;
  assign mgmt_tx_flit[KOLO_DATA_W-1:0] = fidx == 6'd0 ? h0 : fidx == 6'd1 ? h1 : pay;
  wire tail_taken = busy && mgmt_tx_ready && is_tail;

  wire append = data_we && !busy && words != MAX_WORDS;
  wire start = send && !busy && words != 7'd0;

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      words <= 7'd0;
      count <= 32'd0;
      errors <= 32'd0;
      fidx <= 6'd0;
    end else begin
      if ((data_we && !append) || (send && !start)) errors <= errors + 32'd1;
      if (append) words <= words + 7'd1;
      if (start) begin
        busy <= 1'b1;
        fidx <= 6'd0;
      end else if (busy && mgmt_tx_ready) begin
        fidx <= fidx + 6'd1;
      end
      if (tail_taken) begin
        busy <= 1'b0;
        words <= 7'd0;
        count <= count + 32'd1;
      end
    end
  end

  always @(posedge clk) begin
    if (start) begin
      snd_dst <= dst;
      snd_rs <= rs;
    end
    if (append && !words[0]) w_lo[words[5:1]] <= data_in;
    if (append && words[0]) w_hi[words[5:1]] <= data_in;
  end
endmodule
`default_nettype wire
