`default_nettype none
// kolo_cocotb_dma_mux - shares the endpoint core's DMA ports between the NI
// (source 0) and the cocotb test's own DMA agent (source 1), so that the
// tests can issue reads and writes of any size (1..4096 bytes, which the NI
// never does) beside the NI's traffic (tb/cocotb, docs/testing.md).
// Reads: requests round robin; the source of each accepted request is kept
// in order and the core's responses (in acceptance order, docs/ni.md 6) go
// back to it, whole, by their _last beat. Writes: round robin per request;
// a granted source keeps the port for the ceil(len/32) beats of its request.
module kolo_cocotb_dma_mux (
    input  wire         clk,
    input  wire         rst,
    // the core (m_ side: requests out, responses in)
    output wire         m_rq_valid,
    input  wire         m_rq_ready,
    output wire [63:0]  m_rq_addr,
    output wire [12:0]  m_rq_len,
    output wire [7:0]   m_rq_id,
    input  wire         m_rd_valid,
    output wire         m_rd_ready,
    input  wire         m_rd_last,
    output wire         m_wr_valid,
    input  wire         m_wr_ready,
    output wire [63:0]  m_wr_addr,
    output wire [12:0]  m_wr_len,
    output wire [255:0] m_wr_data,
    output wire         m_wr_last,
    // source 0 (the NI) and 1 (the test), packed {1, 0}
    input  wire [1:0]   s_rq_valid,
    output wire [1:0]   s_rq_ready,
    input  wire [127:0] s_rq_addr,
    input  wire [25:0]  s_rq_len,
    input  wire [15:0]  s_rq_id,
    output wire [1:0]   s_rd_valid,
    input  wire [1:0]   s_rd_ready,
    input  wire [1:0]   s_wr_valid,
    output wire [1:0]   s_wr_ready,
    input  wire [127:0] s_wr_addr,
    input  wire [25:0]  s_wr_len,
    input  wire [511:0] s_wr_data,
    input  wire [1:0]   s_wr_last
);
  // ---- read requests ----------------------------------------------------------------
  reg rq_last;   // the last request granted came from source 1
  wire rq_sel = s_rq_valid[1] && (!s_rq_valid[0] || !rq_last);
  assign m_rq_valid = |s_rq_valid;
  assign m_rq_addr = rq_sel ? s_rq_addr[127:64] : s_rq_addr[63:0];
  assign m_rq_len = rq_sel ? s_rq_len[25:13] : s_rq_len[12:0];
  assign m_rq_id = rq_sel ? s_rq_id[15:8] : s_rq_id[7:0];
  assign s_rq_ready = {rq_sel && m_rq_ready, !rq_sel && m_rq_ready};
  wire rq_fire = m_rq_valid && m_rq_ready;
  // the sources of the requests in flight, in order
  reg [255:0] src_q;
  reg [7:0]   src_wr, src_rd;
  wire rd_src = src_q[src_rd];
  assign s_rd_valid = {m_rd_valid && rd_src, m_rd_valid && !rd_src};
  assign m_rd_ready = rd_src ? s_rd_ready[1] : s_rd_ready[0];
  wire rd_end = m_rd_valid && m_rd_ready && m_rd_last;
  always @(posedge clk) begin
    if (rst) begin
      rq_last <= 1'b0;
      src_wr <= 8'd0;
      src_rd <= 8'd0;
    end else begin
      if (rq_fire) begin
        rq_last <= rq_sel;
        src_q[src_wr] <= rq_sel;
        src_wr <= src_wr + 8'd1;
      end
      if (rd_end) src_rd <= src_rd + 8'd1;
    end
  end

  // ---- writes -------------------------------------------------------------------------
  // the core latches _addr/_len when it first sees valid: the choice of source
  // is locked from the first cycle a request is offered to its last beat
  reg       wr_lock, wr_own, wr_last_src;
  reg [8:0] wr_left;   // beats of the locked request still to go
  wire wr_pick = s_wr_valid[1] && (!s_wr_valid[0] || !wr_last_src);
  wire wr_sel = wr_lock ? wr_own : wr_pick;
  assign m_wr_valid = wr_sel ? s_wr_valid[1] : s_wr_valid[0];
  assign m_wr_addr = wr_sel ? s_wr_addr[127:64] : s_wr_addr[63:0];
  assign m_wr_len = wr_sel ? s_wr_len[25:13] : s_wr_len[12:0];
  assign m_wr_data = wr_sel ? s_wr_data[511:256] : s_wr_data[255:0];
  assign m_wr_last = wr_sel ? s_wr_last[1] : s_wr_last[0];
  assign s_wr_ready = {wr_sel && m_wr_ready, !wr_sel && m_wr_ready};
  wire wr_fire = m_wr_valid && m_wr_ready;
  wire [12:0] w_len = m_wr_len;
  wire [8:0] w_beats = {1'b0, w_len[12:5]} + {8'd0, w_len[4:0] != 5'd0};
  always @(posedge clk) begin
    if (rst) begin
      wr_lock <= 1'b0;
      wr_own <= 1'b0;
      wr_last_src <= 1'b0;
      wr_left <= 9'd0;
    end else if (!wr_lock) begin
      if (m_wr_valid) begin
        wr_own <= wr_sel;
        wr_last_src <= wr_sel;
        wr_left <= wr_fire ? w_beats - 9'd1 : w_beats;
        wr_lock <= !wr_fire || w_beats != 9'd1;
      end
    end else if (wr_fire) begin
      wr_left <= wr_left - 9'd1;
      if (wr_left == 9'd1) wr_lock <= 1'b0;
    end
  end
endmodule
`default_nettype wire
