`default_nettype none
// kolo_ni_route - the NI's routing table: 4096 entries of 32 bits
// (kolo_route.h format: route state in 22:0, bit 31 = reachable) in one
// block RAM addressed by node id {z,y,x}.
//
// Lookups (lk_*, three requesters: 0 = target side, 1 = send side, 2 = the
// end-to-end retransmission unit) give a
// node id; lk_req is held until lk_gnt (round robin with the MMIO reads),
// and the cycle after the grant lk_rvalid[r] pulses with lk_entry and lk_ok
// (id inside the torus and entry bit 31 set).
// MMIO (mm_*) addresses entries by node index i = x + X*(y + Y*z) as BAR0
// does: the index is converted to an id by a small sequential divider (about
// 30 cycles), then the entry is written, or read through the shared read
// port. mm_req is held until mm_done pulses; an index outside the torus
// writes nothing and reads 0 (mm_in = 0). A write reads the old entry first:
// mm_chg pulses with mm_done when the entry changed (an end-to-end table
// switch, docs/ni.md section 10).
// ext_en = 1: lookups read the service block's double-buffered table instead
// (kolo_svc: ext_lk_valid/ext_lk_id ask, ext_lk_entry answers the next
// cycle); the RAM here then only serves MMIO. A static strap.
module kolo_ni_route (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   cfg_dim_m1,    // {z,y,x} ring size - 1
    input  wire [2:0]    lk_req,
    input  wire [3*12-1:0] lk_id,
    output wire [2:0]    lk_gnt,
    output reg  [2:0]    lk_rvalid,
    output wire [31:0]   lk_entry,
    output reg           lk_ok,
    input  wire          mm_req,
    input  wire          mm_we,
    input  wire [11:0]   mm_idx,
    input  wire [31:0]   mm_wdata,
    output reg           mm_done,
    output reg  [31:0]   mm_rdata,
    output reg           mm_in,
    output reg           mm_chg,
    input  wire          ext_en,
    output wire          ext_lk_valid,
    output wire [11:0]   ext_lk_id,
    input  wire [31:0]   ext_lk_entry
);
  reg [31:0] ram[0:4095];
  reg [31:0] ram_q;
  assign lk_entry = ext_en ? ext_lk_entry : ram_q;

  // ---- MMIO index -> id --------------------------------------------------------
  localparam M_IDLE = 3'd0, M_DIVX = 3'd1, M_DIVY = 3'd2, M_ACT = 3'd3, M_RD = 3'd4,
             M_RDW = 3'd5, M_DONE = 3'd6;
  reg [2:0] mst;
  reg [11:0] dvd;   // dividend, shifted out msb first; quotient bits shifted in
  reg [4:0] rem;
  reg [3:0] step;
  reg [3:0] mx, my;
  reg [11:0] mid;
  reg mid_in;
  wire [4:0] dx = {1'b0, cfg_dim_m1[3:0]} + 5'd1;
  wire [4:0] dy = {1'b0, cfg_dim_m1[7:4]} + 5'd1;
  wire [4:0] dsr = (mst == M_DIVX) ? dx : dy;
  wire [5:0] trial = {rem, dvd[11]};
  wire take = trial >= {1'b0, dsr};
  wire [5:0] trial_sub = trial - {1'b0, dsr};
  wire [4:0] rem_next = take ? trial_sub[4:0] : trial[4:0];
  wire unused_sub = trial_sub[5];
  wire mm_rd_gnt;

  always @(posedge clk) begin
    if (rst) begin
      mst <= M_IDLE;
      mm_done <= 1'b0;
    end else begin
      mm_done <= 1'b0;
      case (mst)
        M_IDLE: if (mm_req && !mm_done) begin
          dvd <= mm_idx;
          rem <= 5'd0;
          step <= 4'd0;
          mst <= M_DIVX;
        end
        M_DIVX, M_DIVY: begin
          dvd <= {dvd[10:0], take};
          rem <= rem_next;
          step <= step + 4'd1;
          if (step == 4'd11) begin
            // dvd now holds the quotient (after this shift), rem_next the remainder
            if (mst == M_DIVX) begin
              mx <= rem_next[3:0];
              rem <= 5'd0;
              step <= 4'd0;
              mst <= M_DIVY;
            end else begin
              my <= rem_next[3:0];
              mst <= M_ACT;
            end
          end
        end
        M_ACT: begin
          // dvd = z
          mid <= {dvd[3:0], my, mx};
          mid_in <= (dvd <= {8'd0, cfg_dim_m1[11:8]});
          mst <= M_RD;
        end
        M_RD: if (mm_rd_gnt || !mid_in) mst <= M_RDW;
        M_RDW: mst <= M_DONE;
        M_DONE: begin
          mm_done <= 1'b1;
          mst <= M_IDLE;
        end
        default: mst <= M_IDLE;
      endcase
    end
  end
  // the read data of M_RD is in ram_q during M_RDW
  reg [31:0] old_q;
  always @(posedge clk) begin
    if (mst == M_RDW) old_q <= ram_q;
    mm_chg <= !rst && mst == M_DONE && mm_we && mid_in && old_q != mm_wdata;
    if (mst == M_RDW && !mm_we) mm_rdata <= mid_in ? ram_q : 32'd0;
    if (mst == M_ACT) mm_in <= (dvd <= {8'd0, cfg_dim_m1[11:8]});
  end
  wire ram_we = (mst == M_DONE) && mm_we && mid_in;
  always @(posedge clk) if (ram_we) ram[mid] <= mm_wdata;

  // ---- read port: lookups and MMIO reads, round robin ---------------------------
  wire [3:0] req = {mst == M_RD && mid_in, lk_req};
  wire [3:0] gnt;
  kolo_arb_rr #(
      .N(4)
  ) u_arb (
      .clk(clk),
      .rst(rst),
      .req(req),
      .advance(1'b1),
      .grant(gnt)
  );
  assign lk_gnt = gnt[2:0];
  assign mm_rd_gnt = gnt[3];
  wire [11:0] raddr = gnt[0] ? lk_id[11:0] : gnt[1] ? lk_id[23:12] : gnt[2] ? lk_id[35:24] : mid;
  wire [3:0] rx = raddr[3:0], ry = raddr[7:4], rz = raddr[11:8];
  wire r_in = rx <= cfg_dim_m1[3:0] && ry <= cfg_dim_m1[7:4] && rz <= cfg_dim_m1[11:8];
  reg r_in_q;
  always @(posedge clk) begin
    ram_q <= ram[raddr];
    r_in_q <= r_in;
  end
  always @(posedge clk) begin
    if (rst) lk_rvalid <= 3'b000;
    else lk_rvalid <= gnt[2:0];
  end
  always @(*) lk_ok = r_in_q && lk_entry[31];
  assign ext_lk_valid = ext_en && gnt[2:0] != 3'b000;
  assign ext_lk_id = raddr;
endmodule
`default_nettype wire
