`default_nettype none
// kolo_link_phy - the lane side of a kolo link (docs/link.md): 64b/66b lane
// words, scrambling, block lock, clock compensation / deskew markers, lane
// bonding and the clock-domain crossings between the core clock (clk) and the
// lane clocks (tx_lane_clk, rx_lane_clk; one of each for all lanes).
//
// Core side (clk), blocks = {sync[1:0], unscrambled payload[63:0]}:
//   - tx_blk_valid/tx_blk_ready/tx_blk: valid/ready; tx_blk_ready does not
//     depend on tx_blk_valid. With LANES > 1, LANES consecutive blocks are
//     packed into one lane cycle (block k on lane k); a partial word is
//     padded with IDLE blocks and sent as soon as a cycle offers no block.
//   - rx_blk_valid/rx_blk: no ready, the core takes every block. Blocks are
//     those received while lock (and alignment) held, minus IDLE and CC;
//     invalid sync headers (00/11) are passed. With LANES = 1 they come
//     straight from the clock-crossing FIFO's storage (combinational: the
//     core registers them first); with LANES > 1 from a register after the
//     lane unpacking.
//   - phy_rx_lock: all lanes block-locked (and aligned when LANES > 1),
//     through a two-flop synchroniser.
//   - phy_lock_loss: one-cycle pulse each time that status falls (a lane
//     loses block lock or the lanes lose alignment), via a toggle synchroniser.
//   - phy_rx_overflow: one-cycle pulse per lane cycle in which received
//     blocks were dropped because the FIFO into the core was full (toggle
//     synchroniser; events closer than about two core cycles may merge).
// Rate condition: the core takes at most one block per cycle, the lanes
// deliver up to LANES per lane cycle, so f(clk) >= LANES * f(rx_lane_clk)
// (a little less suffices: one lane cycle in CC_INTERVAL carries CC). If it
// does not hold, received blocks are dropped (phy_rx_overflow). The tx side
// only needs backpressure and has no rate condition.
// Lane side: tx_lane_data[66*l +: 66] = {scrambled payload, sync}, bit 0 first
// on the wire; one word per lane per tx_lane_clk cycle in which tx_lane_ready
// is high (the lanes take tx_lane_data at that edge; a transceiver gearbox
// pauses one cycle in 33, kolo_lane_gearbox_tx; tie it high for a lane that
// takes a word every cycle). Every CC_INTERVAL words a CC block goes out on
// all lanes at once; otherwise the next packed word, or IDLE on every lane.
// rx_lane_data has the same layout, with the boundary wherever the lane puts
// it, and carries a word on lane l in the rx_lane_clk cycles with
// rx_lane_valid[l] high (gaps at any cycle, independently per lane; tie high
// for a word every cycle). rx_lane_slip[l] (one-cycle pulse) asks lane l to
// move its boundary by one bit (kolo_block_lock, SLIP_WAIT words).
// LANES > 1: rx lanes are deskewed on the CC blocks (kolo_lane_deskew: up to
// 13 lane words of skew); CC_INTERVAL must be >= 32 then. Alignment is found
// at the first CC after all lanes lock, so up to CC_INTERVAL lane cycles.
// Latency (lane cycles counted as edges of that clock):
//   tx: a block accepted at a core edge is on tx_lane_data after the second
//       tx lane edge that follows (the FIFO's two synchroniser flops; no
//       output register), so the transceiver takes it at the third (one
//       more if a CC cycle comes first, more if the FIFO holds earlier
//       words); LANES > 1 adds the packing: a word leaves with its LANES-th
//       block or one core cycle after the last block of a burst (padded with
//       IDLE).
//   rx: a lane word is in the core-side FIFO at the rx lane edge that takes
//       it (2 edges later with LANES > 1, plus the cycles by which the lane leads
//       the slowest lane), and on rx_blk 2..3 core cycles later (3..4 with
//       LANES > 1); with LANES > 1
//       the blocks of one lane cycle follow in lane order, one per core cycle.
//   Measured (tb/unit/link_phy, isolated blocks, A's tx plus B's rx, lane
//   model delay removed): 45..54 ns with LANES=1 (6.4 ns lanes, 4 ns core),
//   135..170 ns with LANES=4 (16.8 ns lanes).
// Block lock from power-up takes up to 66 * (SLIP_WAIT + a few) + 64 lane
// cycles per lane.
// Resets: rst, tx_lane_rst and rx_lane_rst are synchronous, active high, one
// per domain; they must be asserted together, overlapping by at least one
// edge of each of the three clocks (kolo_fifo_async's rule): kolo_reset_seq
// makes them so, from any reset request of any of the three.
// Clock crossings, all through rtl/common cells: the tx and rx block FIFOs
// (kolo_fifo_async) and the status bits (kolo_sync_bit).
module kolo_link_phy #(
    parameter LANES       = 1,     // 1..4 bonded lanes
    parameter CC_INTERVAL = 4096,  // lane cycles between clock-compensation blocks
    parameter SLIP_WAIT   = 16,    // lane cycles to wait after a slip request
    parameter FIFO_ADDR_W = 4,     // rx clock-crossing FIFO: 2**FIFO_ADDR_W words, >= 3
    parameter TX_FIFO_ADDR_W = 5   // tx clock-crossing FIFO, >= 3; deep enough for a cut-through
                                   // frame (kolo_link_tx) of 34 blocks written at the core rate
) (
    input  wire                clk,
    input  wire                rst,
    input  wire                tx_blk_valid,
    output wire                tx_blk_ready,
    input  wire [65:0]         tx_blk,
    output wire                rx_blk_valid,
    output wire [65:0]         rx_blk,
    output wire                phy_rx_lock,
    output wire                phy_lock_loss,
    output wire                phy_rx_overflow,
    input  wire                tx_lane_clk,
    input  wire                tx_lane_rst,
    input  wire                tx_lane_ready,
    output wire [66*LANES-1:0] tx_lane_data,
    input  wire                rx_lane_clk,
    input  wire                rx_lane_rst,
    input  wire [LANES-1:0]    rx_lane_valid,
    input  wire [66*LANES-1:0] rx_lane_data,
    output wire [LANES-1:0]    rx_lane_slip
);
  localparam [65:0] BLK_IDLE = {2'b10, 64'hF500_0000_0000_001E};  // CRC-8 0xF5
  localparam [65:0] BLK_CC = {2'b10, 64'hE100_0000_0000_002D};    // CRC-8 0xE1
  localparam integer BW = 66 * LANES;  // blocks of one lane cycle
  localparam integer DESKEW_DEPTH = 16;
  localparam integer CCW = (CC_INTERVAL < 2) ? 1 : $clog2(CC_INTERVAL);
  localparam integer CC_LAST_I = CC_INTERVAL - 1;
  localparam [CCW-1:0] CC_LAST = CC_LAST_I[CCW-1:0];
  localparam [CCW-1:0] CC_ONE = 1;

  // ---- parameter limits (the missing module's name is the message) ----------
  generate
    if (LANES < 1 || LANES > 4) begin : g_bad_lanes
      kolo_link_phy_PARAMETER_ERROR_LANES_1_to_4 u_error ();
    end
    if (CC_INTERVAL < 2 || (LANES > 1 && CC_INTERVAL < 2 * DESKEW_DEPTH)) begin : g_bad_cc
      kolo_link_phy_PARAMETER_ERROR_CC_INTERVAL_at_least_2_or_32_with_bonded_lanes u_error ();
    end
    if (FIFO_ADDR_W < 3 || TX_FIFO_ADDR_W < 3) begin : g_bad_fifo
      kolo_link_phy_PARAMETER_ERROR_FIFO_ADDR_W_at_least_3 u_error ();
    end
  endgenerate

  // =========================================================================
  // TX, core clock: pack LANES blocks per word into the clock-crossing FIFO.
  // =========================================================================
  wire          txf_in_valid;
  wire          txf_in_ready;
  wire [BW-1:0] txf_in_data;

  genvar l;
  generate
    if (LANES == 1) begin : g_tx_pack1
      assign txf_in_valid = tx_blk_valid;
      assign txf_in_data  = tx_blk;
      assign tx_blk_ready = txf_in_ready;
    end else begin : g_tx_pack
      localparam integer PW = $clog2(LANES);
      localparam integer LAST_I = LANES - 1;
      localparam [PW-1:0] LAST = LAST_I[PW-1:0];
      localparam [PW-1:0] PK_ONE = 1;
      reg [PW-1:0] pk_cnt;   // blocks held, in slots 0..pk_cnt-1
      reg [BW-1:0] pk_data;  // held blocks; IDLE in the free slots
      reg [BW-1:0] merged;   // pk_data with tx_blk in slot pk_cnt
      integer k;
      always @(*) begin
        merged = pk_data;
        for (k = 0; k < LANES; k = k + 1)
          if (pk_cnt == k[PW-1:0]) merged[66*k+:66] = tx_blk;
      end
      wire last = (pk_cnt == LAST);
      wire held = (pk_cnt != {PW{1'b0}});
      // A full word goes out with its last block; a partial one when a cycle
      // offers nothing. tx_blk_ready is low only when the last slot waits on
      // a full FIFO.
      assign txf_in_valid = tx_blk_valid ? last : held;
      assign txf_in_data  = tx_blk_valid ? merged : pk_data;
      assign tx_blk_ready = !last || txf_in_ready;
      always @(posedge clk) begin
        if (rst) begin
          pk_cnt  <= {PW{1'b0}};
          pk_data <= {LANES{BLK_IDLE}};
        end else if (txf_in_valid && txf_in_ready) begin
          pk_cnt  <= {PW{1'b0}};
          pk_data <= {LANES{BLK_IDLE}};
        end else if (tx_blk_valid && !last) begin
          pk_cnt  <= pk_cnt + PK_ONE;
          pk_data <= merged;
        end
      end
    end
  endgenerate

  wire          txf_out_valid;
  wire          txf_out_ready;
  wire [BW-1:0] txf_out_data;
  kolo_fifo_async #(
      .WIDTH (BW),
      .ADDR_W(TX_FIFO_ADDR_W)
  ) u_tx_fifo (
      .wr_clk   (clk),
      .wr_rst   (rst),
      .in_valid (txf_in_valid),
      .in_ready (txf_in_ready),
      .in_data  (txf_in_data),
      .rd_clk   (tx_lane_clk),
      .rd_rst   (tx_lane_rst),
      .out_valid(txf_out_valid),
      .out_ready(txf_out_ready),
      .out_data (txf_out_data)
  );

  // =========================================================================
  // TX, lane clock: CC every CC_INTERVAL cycles, else a word or IDLE; scramble.
  // =========================================================================
  // Everything below moves only in cycles in which the lanes take a word.
  reg [CCW-1:0] cc_cnt;
  wire cc_now = (cc_cnt == CC_LAST);
  assign txf_out_ready = !cc_now && tx_lane_ready;
  always @(posedge tx_lane_clk) begin
    if (tx_lane_rst) cc_cnt <= {CCW{1'b0}};
    else if (tx_lane_ready) cc_cnt <= cc_now ? {CCW{1'b0}} : cc_cnt + CC_ONE;
  end

  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_tx_lane
      // no output register: the word goes to the transceiver straight from
      // the FIFO's storage, the CC counter and the scrambler state (all
      // registers of this clock; the transceiver registers TXDATA itself)
      wire [65:0] blk = cc_now ? BLK_CC : (txf_out_valid ? txf_out_data[66*l+:66] : BLK_IDLE);
      wire [63:0] scrambled;
      kolo_scrambler u_scr (
          .clk     (tx_lane_clk),
          .rst     (tx_lane_rst),
          .en      (tx_lane_ready),
          .in_data (blk[63:0]),
          .out_data(scrambled)
      );
      assign tx_lane_data[66*l+:66] = {scrambled, blk[65:64]};
    end
  endgenerate

  // =========================================================================
  // RX, lane clock: per lane block lock and descrambler on the lane's word
  // (rx_lane_data and rx_lane_valid come from the transceiver's own output
  // register or kolo_lane_gearbox_rx's; the descrambler is one 3-input XOR); with bonded lanes one register (blk_q)
  // before the deskew, with one lane none.
  // =========================================================================
  wire [LANES-1:0] ln_lock;   // lane locked when its block in ln_blk arrived
  wire [LANES-1:0] ln_valid;  // ln_blk holds a block (not a gap)
  wire [BW-1:0]    ln_blk;    // descrambled blocks {sync, payload}

  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_rx_lane
      wire [65:0] rx_word = rx_lane_data[66*l+:66];  // {scrambled payload, sync}
      wire        rx_valid = rx_lane_valid[l];       // a word, not a gearbox gap
      wire        lock;
      wire [63:0] payload;
      kolo_block_lock #(
          .SLIP_WAIT(SLIP_WAIT)
      ) u_lock (
          .clk     (rx_lane_clk),
          .rst     (rx_lane_rst),
          .valid   (rx_valid),
          .sync_hdr(rx_word[1:0]),
          .lock    (lock),
          .slip    (rx_lane_slip[l])
      );
      // runs on every block, locked or not
      kolo_descrambler u_descr (
          .clk     (rx_lane_clk),
          .rst     (rx_lane_rst),
          .en      (rx_valid),
          .in_data (rx_word[65:2]),
          .out_data(payload)
      );
      if (LANES == 1) begin : g_direct
        // one lane: the descrambled block goes straight into the FIFO
        // (descrambler, IDLE/CC test, FIFO write: 4 LUT levels), paired
        // with the lock state before its own header as with bonded lanes
        assign ln_lock[l] = lock;
        assign ln_valid[l] = rx_valid;
        assign ln_blk[66*l+:66] = {rx_word[1:0], payload};
      end else begin : g_reg
        reg [65:0] blk_q;
        reg        blk_v_q;
        reg        lock_q;
        always @(posedge rx_lane_clk) begin
          if (rx_lane_rst) begin
            lock_q  <= 1'b0;
            blk_v_q <= 1'b0;
          end else begin
            lock_q  <= lock;
            blk_v_q <= rx_valid;
          end
          blk_q <= {rx_word[1:0], payload};
        end
        assign ln_lock[l] = lock_q;
        assign ln_valid[l] = blk_v_q;
        assign ln_blk[66*l+:66] = blk_q;
      end
    end
  endgenerate

  // Rows of LANES blocks received while locked and aligned.
  wire          rx_ok;      // locked (and aligned)
  wire          row_valid;
  wire [BW-1:0] row_blk;
  generate
    if (LANES == 1) begin : g_rx_single
      assign rx_ok     = ln_lock[0];
      assign row_valid = ln_lock[0] && ln_valid[0];
      assign row_blk   = ln_blk;
    end else begin : g_rx_deskew
      kolo_lane_deskew #(
          .LANES(LANES),
          .DEPTH(DESKEW_DEPTH)
      ) u_deskew (
          .clk      (rx_lane_clk),
          .rst      (rx_lane_rst),
          .in_lock  (ln_lock),
          .in_valid (ln_valid),
          .in_blk   (ln_blk),
          .aligned  (rx_ok),
          .out_valid(row_valid),
          .out_blk  (row_blk)
      );
    end
  endgenerate

  // Drop IDLE and CC (exact 66-bit match), keep everything else.
  wire [LANES-1:0] keep;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_keep
      assign keep[l] = row_valid && (row_blk[66*l+:66] != BLK_IDLE) && (row_blk[66*l+:66] != BLK_CC);
    end
  endgenerate

  localparam integer RXW = (LANES == 1) ? 66 : BW + LANES;  // rx FIFO word: {keep, blocks}
  wire           rxf_in_valid = |keep;
  wire           rxf_in_ready;
  wire [RXW-1:0] rxf_in_data;
  wire           rxf_out_valid;
  wire           rxf_out_ready;
  wire [RXW-1:0] rxf_out_data;
  generate
    if (LANES == 1) begin : g_rxf_single
      assign rxf_in_data = row_blk;
    end else begin : g_rxf_bonded
      assign rxf_in_data = {keep, row_blk};
    end
  endgenerate

  kolo_fifo_async #(
      .WIDTH (RXW),
      .ADDR_W(FIFO_ADDR_W)
  ) u_rx_fifo (
      .wr_clk   (rx_lane_clk),
      .wr_rst   (rx_lane_rst),
      .in_valid (rxf_in_valid),
      .in_ready (rxf_in_ready),
      .in_data  (rxf_in_data),
      .rd_clk   (clk),
      .rd_rst   (rst),
      .out_valid(rxf_out_valid),
      .out_ready(rxf_out_ready),
      .out_data (rxf_out_data)
  );

  // Status events in the rx lane domain, as levels and toggles for crossing.
  reg ok_q;       // rx_ok, registered: the source of the phy_rx_lock synchroniser
  reg loss_tgl;   // toggles when rx_ok falls
  reg ovf_tgl;    // toggles in a cycle that drops blocks
  always @(posedge rx_lane_clk) begin
    if (rx_lane_rst) begin
      ok_q     <= 1'b0;
      loss_tgl <= 1'b0;
      ovf_tgl  <= 1'b0;
    end else begin
      ok_q <= rx_ok;
      if (ok_q && !rx_ok) loss_tgl <= !loss_tgl;
      if (rxf_in_valid && !rxf_in_ready) ovf_tgl <= !ovf_tgl;
    end
  end

  // =========================================================================
  // RX, core clock: unpack one block per cycle; status synchronisers.
  // =========================================================================
  generate
    if (LANES == 1) begin : g_unpack1
      // straight from the FIFO (its storage read): kolo_link_rx registers
      // the block with its decoded kind
      assign rxf_out_ready = 1'b1;
      assign rx_blk_valid = rxf_out_valid;
      assign rx_blk = rxf_out_data;
    end else begin : g_unpack
      reg        out_valid_q;
      reg [65:0] out_blk_q;
      assign rx_blk_valid = out_valid_q;
      assign rx_blk = out_blk_q;
      reg  [LANES-1:0] done;  // blocks of the head word already handed out
      wire [LANES-1:0] kept = rxf_out_data[BW+:LANES];
      wire [LANES-1:0] rem = kept & ~done;
      wire [LANES-1:0] pick = rem & ~(rem - {{(LANES - 1) {1'b0}}, 1'b1});  // lowest lane left
      wire [LANES-1:0] rest = rem & ~pick;
      reg  [65:0] pick_blk;
      integer k;
      always @(*) begin
        pick_blk = 66'd0;
        for (k = 0; k < LANES; k = k + 1) if (pick[k]) pick_blk = rxf_out_data[66*k+:66];
      end
      // the word leaves with its last kept block
      assign rxf_out_ready = (rest == {LANES{1'b0}});
      always @(posedge clk) begin
        if (rst) begin
          out_valid_q <= 1'b0;
          done        <= {LANES{1'b0}};
        end else begin
          out_valid_q <= rxf_out_valid && (rem != {LANES{1'b0}});
          if (rxf_out_valid) done <= rxf_out_ready ? {LANES{1'b0}} : (done | pick);
        end
        out_blk_q <= pick_blk;
      end
    end
  endgenerate

  // {overflow toggle, loss toggle, lock} into the core clock (each bit alone:
  // the toggles change one at a time per event, the lock is a level)
  wire [2:0] st_sync;
  kolo_sync_bit #(.WIDTH(3), .STAGES(2)) u_status_sync (
      .clk(clk),
      .in ({ovf_tgl, loss_tgl, ok_q}),
      .out(st_sync)
  );
  reg loss_seen, ovf_seen, loss_pulse, ovf_pulse;
  always @(posedge clk) begin
    // the toggles are followed in reset too: one that settles while both
    // sides are reset is no event
    loss_seen  <= st_sync[1];
    ovf_seen   <= st_sync[2];
    loss_pulse <= !rst && (st_sync[1] ^ loss_seen);
    ovf_pulse  <= !rst && (st_sync[2] ^ ovf_seen);
  end
  assign phy_rx_lock = st_sync[0] && !rst;
  assign phy_lock_loss = loss_pulse;
  assign phy_rx_overflow = ovf_pulse;
endmodule
`default_nettype wire
