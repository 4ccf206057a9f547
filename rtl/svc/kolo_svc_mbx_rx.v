`default_nettype none
// kolo_svc_mbx_rx - receive side of the management mailbox: MGMT packets
// from mgmt_rx_* (valid/ready stream of {head, tail, data[63:0]} flits,
// framed as kolo_svc_mbx_tx sends them) into a buffer of PKTS packets.
//
// mgmt_rx_ready is always high: one flit is taken every cycle and a packet
// is never held back. Every packet is written into the slot after the
// stored ones (16 slots of 32 payload flits in one block RAM, so the slot
// being received is never one being read) and judged at its tail:
//   malformed (word count of header flit 1 bits 7:0 is 0 or over 64, the
//   payload is not ceil(words/2) flits, or a one-flit packet): dropped,
//   not counted (as kolo_svc_mgmt_deliver);
//   PKTS packets stored (after a pop in the same cycle): dropped, counted
//   in drops, ovf_push raises MBX_OVERFLOW (INFO = source) in that cycle;
//   otherwise stored: pkts and total count it.
// A head flit inside a packet abandons that packet; flits outside a packet
// are ignored. Reads (one access per cycle at most): rd_en takes the next
// word of the oldest packet, on rd_word in the next cycle (0 past its end
// or with no packet); pop drops what is left of the oldest packet.
// PKTS (1..15) packets are kept; the 16 slots leave one to receive into.
module kolo_svc_mbx_rx #(
    parameter PKTS = 8
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         mgmt_rx_valid,
    output wire         mgmt_rx_ready,
    input  wire [65:0]  mgmt_rx_flit,
    input  wire         rd_en,
    output wire [31:0]  rd_word,
    input  wire         pop,
    output reg  [3:0]   pkts,
    output wire [6:0]   head_left,
    output wire [11:0]  head_src,
    output reg  [31:0]  total,
    output reg  [31:0]  drops,
    output wire         ovf_push,
    output wire [11:0]  ovf_src
);
  `include "kolo_defs.vh"
  localparam [3:0] FULL = PKTS;
  localparam [7:0] MAX_WORDS = 8'd64;

  reg [63:0] ram[0:511];          // slot s, payload flit k at {s, k}
  reg [11:0] slot_src[0:15];
  reg [6:0] slot_words[0:15];
  reg [3:0] head;                 // oldest stored packet's slot
  reg [6:0] rd;                   // words of the oldest packet read so far

  // ---- receive -------------------------------------------------------------------------------
  assign mgmt_rx_ready = 1'b1;
  wire take = mgmt_rx_valid;
  wire f_head = mgmt_rx_flit[KOLO_FLIT_HEAD], f_tail = mgmt_rx_flit[KOLO_FLIT_TAIL];
  wire [63:0] f_data = mgmt_rx_flit[KOLO_DATA_W-1:0];
  reg in_pkt, r_bad;
  reg [5:0] fidx;                 // index of the next flit of the packet (0 = header flit 0)
  reg [3:0] r_slot;
  reg [11:0] r_src;
  reg [7:0] r_words;
  wire [5:0] nflits_want = r_words[6:1] + {5'd0, r_words[0]};
  // the judgement at the tail (a tail on header flit 0 or 1 is always malformed)
  wire at_tail = take && f_tail && in_pkt && !f_head && fidx >= 6'd2;
  wire good = !r_bad && r_words != 8'd0 && r_words <= MAX_WORDS && fidx - 6'd1 == nflits_want;
  wire popped = pop && pkts != 4'd0;
  wire full = pkts == FULL && !popped;
  wire commit = at_tail && good && !full;
  assign ovf_push = at_tail && good && full;
  assign ovf_src = r_src;
  wire wr_pay = take && in_pkt && !f_head && fidx >= 6'd2 && fidx <= 6'd33;

  always @(posedge clk) begin
    if (rst) begin
      in_pkt <= 1'b0;
    end else if (take) begin
      if (f_head) begin
        in_pkt <= !f_tail;
        fidx <= 6'd1;
        r_bad <= 1'b0;
        r_src <= f_data[KOLO_H0_SRC_LO+:12];
        r_slot <= head + pkts;
      end else if (in_pkt) begin
        if (f_tail) in_pkt <= 1'b0;
        if (fidx == 6'd1) r_words <= f_data[7:0];
        if (fidx == 6'd34) r_bad <= 1'b1;   // more than 32 payload flits
        else fidx <= fidx + 6'd1;
      end
    end
  end
  wire [4:0] pay_idx = fidx[4:0] - 5'd2;
  always @(posedge clk) if (wr_pay) ram[{r_slot, pay_idx}] <= f_data;

  // ---- stored packets -----------------------------------------------------------------------
  assign head_left = pkts != 4'd0 ? slot_words[head] - rd : 7'd0;
  assign head_src = pkts != 4'd0 ? slot_src[head] : 12'd0;
  wire rd_take = rd_en && pkts != 4'd0 && rd < slot_words[head];
  always @(posedge clk) begin
    if (rst) begin
      head <= 4'd0;
      pkts <= 4'd0;
      rd <= 7'd0;
      total <= 32'd0;
      drops <= 32'd0;
    end else begin
      if (popped) begin
        head <= head + 4'd1;
        rd <= 7'd0;
      end else if (rd_take) begin
        rd <= rd + 7'd1;
      end
      pkts <= pkts - {3'd0, popped} + {3'd0, commit};
      if (commit) total <= total + 32'd1;
      if (ovf_push) drops <= drops + 32'd1;
    end
  end
  always @(posedge clk) begin
    if (commit) begin
      slot_src[r_slot] <= r_src;
      slot_words[r_slot] <= r_words[6:0];
    end
  end

  // ---- word read: one cycle -------------------------------------------------------------------
  reg [63:0] ram_q;
  reg rd_valid_q, rd_hi_q;
  always @(posedge clk) begin
    if (rd_take) ram_q <= ram[{head, rd[5:1]}];
    rd_valid_q <= rd_take;
    rd_hi_q <= rd[0];
  end
  assign rd_word = !rd_valid_q ? 32'd0 : rd_hi_q ? ram_q[63:32] : ram_q[31:0];
endmodule
`default_nettype wire
