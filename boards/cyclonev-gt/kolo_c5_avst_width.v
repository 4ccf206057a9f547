`default_nettype none
// kolo_c5_avst_width - the Cyclone V PCIe hard IP's 128-bit Avalon-ST TLP
// streams (Gen2 x4, one packet per cycle, ready latency 2) to and from the
// 256-bit Avalon-ST that kolo_pcie_shim_avst speaks.
//
// Receive (hip_rx_* -> shim_rx_*): a TLP starts in the low 64 bits of a
// 128-bit beat (sop), qword-aligned payload, hip_rx_empty (1 bit) says the
// high qword of the eop beat is empty. Two 128-bit beats make one 256-bit
// beat: the first in bits 127:0, the second in 255:128; a TLP that ends in
// the first half leaves the beat there (shim_rx_empty = 2 + hip_rx_empty
// qwords), and the next TLP starts a new 256-bit beat, so the shim sees a
// TLP start in DW0 of a beat and qword alignment as before. bar, err go
// with the first beat. The hard IP may send up to HIP_RX_LATENCY (2) beats
// after hip_rx_ready falls: the beats wait in a FIFO of 8 (ready asks for
// more only while HIP_RX_LATENCY + 2 places are free). The shim side has a
// ready latency of 1: a beat is offered only in a cycle after shim_rx_ready
// was high, and taken then (the shim's RX_READY_LATENCY must be >= 1).
// Transmit (shim_tx_* -> hip_tx_*): the shim drives a 256-bit beat only
// SHIM_TX_LATENCY cycles after shim_tx_ready was high (its
// TX_READY_LATENCY); the adapter asks for beats while its FIFO (8 beats)
// has room for that many more, and sends each as one or two 128-bit beats
// (the second only if the beat's data reaches past bit 127: not when the
// eop beat's empty is 2 or more), each only HIP_TX_LATENCY cycles after
// hip_tx_ready was high, tracked per cycle (readyLatency of the hard IP).
// Latency: a TLP's first beat two cycles (receive) or three (transmit).
// Reset: rst synchronous, active high: FIFOs empty, no beat half-packed.
module kolo_c5_avst_width #(
    parameter HIP_RX_LATENCY  = 2,
    parameter HIP_TX_LATENCY  = 2,
    parameter SHIM_TX_LATENCY = 2
) (
    input  wire         clk,
    input  wire         rst,
    // hard IP -> adapter (128 bit)
    input  wire         hip_rx_valid,
    output reg          hip_rx_ready,
    input  wire [127:0] hip_rx_data,
    input  wire         hip_rx_sop,
    input  wire         hip_rx_eop,
    input  wire         hip_rx_empty,
    input  wire [7:0]   hip_rx_bar,
    // adapter -> shim (256 bit)
    output reg          shim_rx_valid,
    input  wire         shim_rx_ready,
    output reg  [255:0] shim_rx_data,
    output reg          shim_rx_sop,
    output reg          shim_rx_eop,
    output reg  [1:0]   shim_rx_empty,
    output reg  [7:0]   shim_rx_bar,
    // shim -> adapter (256 bit)
    input  wire         shim_tx_valid,
    output reg          shim_tx_ready,
    input  wire [255:0] shim_tx_data,
    input  wire         shim_tx_sop,
    input  wire         shim_tx_eop,
    input  wire [1:0]   shim_tx_empty,
    // adapter -> hard IP (128 bit)
    output reg          hip_tx_valid,
    input  wire         hip_tx_ready,
    output reg  [127:0] hip_tx_data,
    output reg          hip_tx_sop,
    output reg          hip_tx_eop,
    output reg          hip_tx_empty
);
  generate
    if (HIP_RX_LATENCY < 0 || HIP_RX_LATENCY > 4 || HIP_TX_LATENCY < 1 || HIP_TX_LATENCY > 4 ||
        SHIM_TX_LATENCY < 1 || SHIM_TX_LATENCY > 4) begin : g_bad
      kolo_c5_avst_width_PARAMETER_ERROR_latencies_0_to_4 u_error ();
    end
  endgenerate

  // ---- receive: FIFO of 128-bit beats ----------------------------------------------------
  localparam RXW = 128 + 3 + 8;
  reg  [RXW-1:0] rxq[0:7];
  reg  [3:0]     rxq_wr, rxq_rd;
  wire [3:0]     rxq_level = rxq_wr - rxq_rd;
  always @(posedge clk) begin
    if (rst) begin
      rxq_wr <= 4'd0;
      hip_rx_ready <= 1'b0;
    end else begin
      if (hip_rx_valid) begin   // every beat the hard IP sends is taken (latency covered)
        rxq[rxq_wr[2:0]] <= {hip_rx_bar, hip_rx_empty, hip_rx_eop, hip_rx_sop, hip_rx_data};
        rxq_wr <= rxq_wr + 4'd1;
      end
      // room for the beats already asked for: level + latency + this one
      hip_rx_ready <= rxq_level + {3'd0, hip_rx_valid} <= 4'd8 - HIP_RX_LATENCY[3:0] - 4'd2;
    end
  end
  wire [RXW-1:0] rq = rxq[rxq_rd[2:0]];
  wire           rq_have = rxq_level != 4'd0;
  wire           rq_sop = rq[128], rq_eop = rq[129], rq_empty = rq[130];
  wire [7:0]     rq_bar = rq[138:131];

  // pack: hold the first half until the second comes (or the TLP ends). A
  // beat is offered only in a cycle after shim_rx_ready was high (the shim's
  // ready latency 1) and for one cycle: the shim takes every beat offered.
  reg          half;        // bits 127:0 of the beat being built are filled
  reg  [127:0] low;
  reg  [7:0]   low_bar;
  reg          low_sop;
  always @(posedge clk) begin
    shim_rx_valid <= 1'b0;
    if (rst) begin
      rxq_rd <= 4'd0;
      half <= 1'b0;
      low <= 128'd0;
      low_bar <= 8'd0;
      low_sop <= 1'b0;
      shim_rx_data <= 256'd0;
      shim_rx_sop <= 1'b0;
      shim_rx_eop <= 1'b0;
      shim_rx_empty <= 2'd0;
      shim_rx_bar <= 8'd0;
    end else if (rq_have && shim_rx_ready) begin
      rxq_rd <= rxq_rd + 4'd1;
      if (!half) begin
        if (rq_eop) begin   // the TLP ends in the low half
          shim_rx_valid <= 1'b1;
          shim_rx_data <= {128'd0, rq[127:0]};
          shim_rx_sop <= rq_sop;
          shim_rx_eop <= 1'b1;
          shim_rx_empty <= {1'b1, rq_empty};
          shim_rx_bar <= rq_bar;
        end else begin
          half <= 1'b1;
          low <= rq[127:0];
          low_bar <= rq_bar;
          low_sop <= rq_sop;
        end
      end else begin
        half <= 1'b0;
        shim_rx_valid <= 1'b1;
        shim_rx_data <= {rq[127:0], low};
        shim_rx_sop <= low_sop;
        shim_rx_eop <= rq_eop;
        shim_rx_empty <= {1'b0, rq_eop & rq_empty};
        shim_rx_bar <= low_bar;
      end
    end
  end

  // ---- transmit: FIFO of 256-bit beats from the shim -----------------------------------------
  localparam TXW = 256 + 4;
  reg  [TXW-1:0] txq[0:7];
  reg  [3:0]     txq_wr, txq_rd;
  wire [3:0]     txq_level = txq_wr - txq_rd;
  always @(posedge clk) begin
    if (rst) begin
      txq_wr <= 4'd0;
      shim_tx_ready <= 1'b0;
    end else begin
      if (shim_tx_valid) begin
        txq[txq_wr[2:0]] <= {shim_tx_empty, shim_tx_eop, shim_tx_sop, shim_tx_data};
        txq_wr <= txq_wr + 4'd1;
      end
      shim_tx_ready <= txq_level + {3'd0, shim_tx_valid} <= 4'd8 - SHIM_TX_LATENCY[3:0] - 4'd2;
    end
  end
  wire [TXW-1:0] tq = txq[txq_rd[2:0]];
  wire           tq_have = txq_level != 4'd0;
  wire           tq_sop = tq[256], tq_eop = tq[257];
  wire [1:0]     tq_empty = tq[259:258];
  // the hard IP's ready over the last cycles; the beat driven in the next
  // cycle needs it HIP_TX_LATENCY cycles before that one
  reg  [3:0]     hip_ready_hist;
  wire           next_may_send = (HIP_TX_LATENCY == 1) ? hip_tx_ready : hip_ready_hist[HIP_TX_LATENCY-2];
  reg            second;    // the high half of the current 256-bit beat is due
  always @(posedge clk) begin
    if (rst) begin
      txq_rd <= 4'd0;
      second <= 1'b0;
      hip_ready_hist <= 4'd0;
      hip_tx_valid <= 1'b0;
      hip_tx_data <= 128'd0;
      hip_tx_sop <= 1'b0;
      hip_tx_eop <= 1'b0;
      hip_tx_empty <= 1'b0;
    end else begin
      hip_ready_hist <= {hip_ready_hist[2:0], hip_tx_ready};
      hip_tx_valid <= 1'b0;
      if (tq_have && next_may_send) begin
        hip_tx_valid <= 1'b1;
        if (!second) begin
          hip_tx_data <= tq[127:0];
          hip_tx_sop <= tq_sop;
          // the low half ends the TLP if its eop beat leaves the high half empty
          hip_tx_eop <= tq_eop && tq_empty[1];
          hip_tx_empty <= tq_eop && tq_empty[1] && tq_empty[0];
          if (tq_eop && tq_empty[1]) txq_rd <= txq_rd + 4'd1;
          else second <= 1'b1;
        end else begin
          hip_tx_data <= tq[255:128];
          hip_tx_sop <= 1'b0;
          hip_tx_eop <= tq_eop;
          hip_tx_empty <= tq_eop && tq_empty[0];
          second <= 1'b0;
          txq_rd <= txq_rd + 4'd1;
        end
      end
    end
  end
endmodule
`default_nettype wire
