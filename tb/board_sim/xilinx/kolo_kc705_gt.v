`default_nettype none
// kolo_kc705_gt (simulation model) - the KC705's Transceivers Wizard core
// (gtwizard, six GTX channels gt0..gt5, boards/kc705/kc705_ip.tcl), with the
// ports of boards/kc705/kc705_ip_stubs.v, behavioural, for the board-level
// simulation (tb/board_sim, docs/boards.md "Board-level simulation"), with
// timing controls (Verilator --timing). Not for synthesis.
// Modelled: the channels' CPLLs lock LOCK_EDGES reference edges after the
// reference (gt*_gtrefclk0_in, all six share it as on the board) starts,
// measuring its period; then every channel's TXOUTCLK runs at the user
// rate, reference period * USR_PER_REF (125 MHz -> 156.25 MHz: 5.0 Gb/s /
// 32), and its RXOUTCLK, the recovered clock, is the inverted TXOUTCLK (the
// harness runs both boards' references at one frequency: no frequency
// offset is modelled, only a phase). The reset FSMs (in the core, on
// sysclk_in): gt*_tx_fsm_reset_done_out rises TX_RESET_CYCLES sysclk_in
// cycles after soft_reset_tx_in falls with the CPLL locked, rx likewise
// (RX_RESET_CYCLES; real: the CDR's lock wait), both fall with their soft
// reset. The channels' user sides: kolo_sim_gtx_ch (words to the harness's
// cables). The serial pins carry no data (the transmitter's P pin is high
// while it sends, for a waveform). dont_reset_on_data_error_in and
// gt*_data_valid_in are not modelled (the board ties them to 1). When the
// reference stops (the board's power off) the CPLL loses lock
// (kolo_sim_pll), the user clocks stop and both reset FSMs fall at
// once: the transmitters go quiet.
module kolo_kc705_gt #(
    parameter LOCK_EDGES      = 64,    // model only: reference edges to CPLL lock
    parameter real USR_PER_REF = 0.8,  // model only: user clock period / reference period
    parameter TX_RESET_CYCLES = 64,    // model only: sysclk_in cycles of the reset FSMs
    parameter RX_RESET_CYCLES = 128
) (
    input  wire        sysclk_in,
    input  wire        soft_reset_tx_in,
    input  wire        soft_reset_rx_in,
    input  wire        dont_reset_on_data_error_in,
    input  wire        gt0_gtrefclk0_in,
    output wire        gt0_txoutclk_out,
    output wire        gt0_rxoutclk_out,
    input  wire        gt0_txusrclk_in,
    input  wire        gt0_txusrclk2_in,
    input  wire        gt0_rxusrclk_in,
    input  wire        gt0_rxusrclk2_in,
    output wire        gt0_tx_fsm_reset_done_out,
    output wire        gt0_rx_fsm_reset_done_out,
    input  wire        gt0_data_valid_in,
    input  wire [31:0] gt0_txdata_in,
    input  wire [1:0]  gt0_txheader_in,
    input  wire [6:0]  gt0_txsequence_in,
    output wire [31:0] gt0_rxdata_out,
    output wire [1:0]  gt0_rxheader_out,
    output wire        gt0_rxdatavalid_out,
    output wire        gt0_rxheadervalid_out,
    input  wire        gt0_rxgearboxslip_in,
    input  wire [2:0]  gt0_loopback_in,
    input  wire        gt0_gtxrxp_in,
    input  wire        gt0_gtxrxn_in,
    output wire        gt0_gtxtxp_out,
    output wire        gt0_gtxtxn_out,
    input  wire        gt1_gtrefclk0_in,
    output wire        gt1_txoutclk_out,
    output wire        gt1_rxoutclk_out,
    input  wire        gt1_txusrclk_in,
    input  wire        gt1_txusrclk2_in,
    input  wire        gt1_rxusrclk_in,
    input  wire        gt1_rxusrclk2_in,
    output wire        gt1_tx_fsm_reset_done_out,
    output wire        gt1_rx_fsm_reset_done_out,
    input  wire        gt1_data_valid_in,
    input  wire [31:0] gt1_txdata_in,
    input  wire [1:0]  gt1_txheader_in,
    input  wire [6:0]  gt1_txsequence_in,
    output wire [31:0] gt1_rxdata_out,
    output wire [1:0]  gt1_rxheader_out,
    output wire        gt1_rxdatavalid_out,
    output wire        gt1_rxheadervalid_out,
    input  wire        gt1_rxgearboxslip_in,
    input  wire [2:0]  gt1_loopback_in,
    input  wire        gt1_gtxrxp_in,
    input  wire        gt1_gtxrxn_in,
    output wire        gt1_gtxtxp_out,
    output wire        gt1_gtxtxn_out,
    input  wire        gt2_gtrefclk0_in,
    output wire        gt2_txoutclk_out,
    output wire        gt2_rxoutclk_out,
    input  wire        gt2_txusrclk_in,
    input  wire        gt2_txusrclk2_in,
    input  wire        gt2_rxusrclk_in,
    input  wire        gt2_rxusrclk2_in,
    output wire        gt2_tx_fsm_reset_done_out,
    output wire        gt2_rx_fsm_reset_done_out,
    input  wire        gt2_data_valid_in,
    input  wire [31:0] gt2_txdata_in,
    input  wire [1:0]  gt2_txheader_in,
    input  wire [6:0]  gt2_txsequence_in,
    output wire [31:0] gt2_rxdata_out,
    output wire [1:0]  gt2_rxheader_out,
    output wire        gt2_rxdatavalid_out,
    output wire        gt2_rxheadervalid_out,
    input  wire        gt2_rxgearboxslip_in,
    input  wire [2:0]  gt2_loopback_in,
    input  wire        gt2_gtxrxp_in,
    input  wire        gt2_gtxrxn_in,
    output wire        gt2_gtxtxp_out,
    output wire        gt2_gtxtxn_out,
    input  wire        gt3_gtrefclk0_in,
    output wire        gt3_txoutclk_out,
    output wire        gt3_rxoutclk_out,
    input  wire        gt3_txusrclk_in,
    input  wire        gt3_txusrclk2_in,
    input  wire        gt3_rxusrclk_in,
    input  wire        gt3_rxusrclk2_in,
    output wire        gt3_tx_fsm_reset_done_out,
    output wire        gt3_rx_fsm_reset_done_out,
    input  wire        gt3_data_valid_in,
    input  wire [31:0] gt3_txdata_in,
    input  wire [1:0]  gt3_txheader_in,
    input  wire [6:0]  gt3_txsequence_in,
    output wire [31:0] gt3_rxdata_out,
    output wire [1:0]  gt3_rxheader_out,
    output wire        gt3_rxdatavalid_out,
    output wire        gt3_rxheadervalid_out,
    input  wire        gt3_rxgearboxslip_in,
    input  wire [2:0]  gt3_loopback_in,
    input  wire        gt3_gtxrxp_in,
    input  wire        gt3_gtxrxn_in,
    output wire        gt3_gtxtxp_out,
    output wire        gt3_gtxtxn_out,
    input  wire        gt4_gtrefclk0_in,
    output wire        gt4_txoutclk_out,
    output wire        gt4_rxoutclk_out,
    input  wire        gt4_txusrclk_in,
    input  wire        gt4_txusrclk2_in,
    input  wire        gt4_rxusrclk_in,
    input  wire        gt4_rxusrclk2_in,
    output wire        gt4_tx_fsm_reset_done_out,
    output wire        gt4_rx_fsm_reset_done_out,
    input  wire        gt4_data_valid_in,
    input  wire [31:0] gt4_txdata_in,
    input  wire [1:0]  gt4_txheader_in,
    input  wire [6:0]  gt4_txsequence_in,
    output wire [31:0] gt4_rxdata_out,
    output wire [1:0]  gt4_rxheader_out,
    output wire        gt4_rxdatavalid_out,
    output wire        gt4_rxheadervalid_out,
    input  wire        gt4_rxgearboxslip_in,
    input  wire [2:0]  gt4_loopback_in,
    input  wire        gt4_gtxrxp_in,
    input  wire        gt4_gtxrxn_in,
    output wire        gt4_gtxtxp_out,
    output wire        gt4_gtxtxn_out,
    input  wire        gt5_gtrefclk0_in,
    output wire        gt5_txoutclk_out,
    output wire        gt5_rxoutclk_out,
    input  wire        gt5_txusrclk_in,
    input  wire        gt5_txusrclk2_in,
    input  wire        gt5_rxusrclk_in,
    input  wire        gt5_rxusrclk2_in,
    output wire        gt5_tx_fsm_reset_done_out,
    output wire        gt5_rx_fsm_reset_done_out,
    input  wire        gt5_data_valid_in,
    input  wire [31:0] gt5_txdata_in,
    input  wire [1:0]  gt5_txheader_in,
    input  wire [6:0]  gt5_txsequence_in,
    output wire [31:0] gt5_rxdata_out,
    output wire [1:0]  gt5_rxheader_out,
    output wire        gt5_rxdatavalid_out,
    output wire        gt5_rxheadervalid_out,
    input  wire        gt5_rxgearboxslip_in,
    input  wire [2:0]  gt5_loopback_in,
    input  wire        gt5_gtxrxp_in,
    input  wire        gt5_gtxrxn_in,
    output wire        gt5_gtxtxp_out,
    output wire        gt5_gtxtxn_out
);
  // ---- CPLL (one for all: the same reference) and the user clocks ----
  wire cpll_lock, txclk;
  wire unused_cpll_out1;
  kolo_sim_pll #(.LOCK_PERIODS(LOCK_EDGES), .EXACT(0), .RATIO0(USR_PER_REF)) u_cpll (
      .clk_in(gt0_gtrefclk0_in), .rst(1'b0), .locked(cpll_lock), .out0(txclk), .out1(unused_cpll_out1)
  );
  wire rxclk = cpll_lock && !txclk;

  // ---- reset FSMs (sysclk_in) ----
  integer tx_count, rx_count;
  reg     tx_done, rx_done;
  initial begin
    tx_count = 0;
    rx_count = 0;
    tx_done = 1'b0;
    rx_done = 1'b0;
  end
  // the CPLL's loss of lock (its reference stopped: the board's power off)
  // takes both FSMs back at once
  always @(posedge sysclk_in or negedge cpll_lock) begin
    if (!cpll_lock) begin
      tx_count <= 0;
      rx_count <= 0;
      tx_done <= 1'b0;
      rx_done <= 1'b0;
    end else begin
      if (soft_reset_tx_in || !cpll_lock) tx_count <= 0;
      else if (tx_count < TX_RESET_CYCLES) tx_count <= tx_count + 1;
      tx_done <= !soft_reset_tx_in && cpll_lock && tx_count >= TX_RESET_CYCLES;
      if (soft_reset_rx_in || !cpll_lock) rx_count <= 0;
      else if (rx_count < RX_RESET_CYCLES) rx_count <= rx_count + 1;
      rx_done <= !soft_reset_rx_in && cpll_lock && rx_count >= RX_RESET_CYCLES;
    end
  end

  // ---- the six channels ----
  kolo_sim_gtx_ch u_ch0 (
      .tx_clk(gt0_txusrclk2_in), .rx_clk(gt0_rxusrclk2_in), .tx_on(tx_done), .rx_on(rx_done),
      .tx_data(gt0_txdata_in), .tx_header(gt0_txheader_in), .tx_sequence(gt0_txsequence_in),
      .loopback(gt0_loopback_in), .rx_slip(gt0_rxgearboxslip_in), .rx_data(gt0_rxdata_out),
      .rx_header(gt0_rxheader_out), .rx_data_valid(gt0_rxdatavalid_out), .rx_header_valid(gt0_rxheadervalid_out)
  );
  assign gt0_txoutclk_out = cpll_lock && txclk;
  assign gt0_rxoutclk_out = rxclk;
  assign gt0_tx_fsm_reset_done_out = tx_done;
  assign gt0_rx_fsm_reset_done_out = rx_done;
  assign gt0_gtxtxp_out = tx_done;
  assign gt0_gtxtxn_out = !tx_done;
  kolo_sim_gtx_ch u_ch1 (
      .tx_clk(gt1_txusrclk2_in), .rx_clk(gt1_rxusrclk2_in), .tx_on(tx_done), .rx_on(rx_done),
      .tx_data(gt1_txdata_in), .tx_header(gt1_txheader_in), .tx_sequence(gt1_txsequence_in),
      .loopback(gt1_loopback_in), .rx_slip(gt1_rxgearboxslip_in), .rx_data(gt1_rxdata_out),
      .rx_header(gt1_rxheader_out), .rx_data_valid(gt1_rxdatavalid_out), .rx_header_valid(gt1_rxheadervalid_out)
  );
  assign gt1_txoutclk_out = cpll_lock && txclk;
  assign gt1_rxoutclk_out = rxclk;
  assign gt1_tx_fsm_reset_done_out = tx_done;
  assign gt1_rx_fsm_reset_done_out = rx_done;
  assign gt1_gtxtxp_out = tx_done;
  assign gt1_gtxtxn_out = !tx_done;
  kolo_sim_gtx_ch u_ch2 (
      .tx_clk(gt2_txusrclk2_in), .rx_clk(gt2_rxusrclk2_in), .tx_on(tx_done), .rx_on(rx_done),
      .tx_data(gt2_txdata_in), .tx_header(gt2_txheader_in), .tx_sequence(gt2_txsequence_in),
      .loopback(gt2_loopback_in), .rx_slip(gt2_rxgearboxslip_in), .rx_data(gt2_rxdata_out),
      .rx_header(gt2_rxheader_out), .rx_data_valid(gt2_rxdatavalid_out), .rx_header_valid(gt2_rxheadervalid_out)
  );
  assign gt2_txoutclk_out = cpll_lock && txclk;
  assign gt2_rxoutclk_out = rxclk;
  assign gt2_tx_fsm_reset_done_out = tx_done;
  assign gt2_rx_fsm_reset_done_out = rx_done;
  assign gt2_gtxtxp_out = tx_done;
  assign gt2_gtxtxn_out = !tx_done;
  kolo_sim_gtx_ch u_ch3 (
      .tx_clk(gt3_txusrclk2_in), .rx_clk(gt3_rxusrclk2_in), .tx_on(tx_done), .rx_on(rx_done),
      .tx_data(gt3_txdata_in), .tx_header(gt3_txheader_in), .tx_sequence(gt3_txsequence_in),
      .loopback(gt3_loopback_in), .rx_slip(gt3_rxgearboxslip_in), .rx_data(gt3_rxdata_out),
      .rx_header(gt3_rxheader_out), .rx_data_valid(gt3_rxdatavalid_out), .rx_header_valid(gt3_rxheadervalid_out)
  );
  assign gt3_txoutclk_out = cpll_lock && txclk;
  assign gt3_rxoutclk_out = rxclk;
  assign gt3_tx_fsm_reset_done_out = tx_done;
  assign gt3_rx_fsm_reset_done_out = rx_done;
  assign gt3_gtxtxp_out = tx_done;
  assign gt3_gtxtxn_out = !tx_done;
  kolo_sim_gtx_ch u_ch4 (
      .tx_clk(gt4_txusrclk2_in), .rx_clk(gt4_rxusrclk2_in), .tx_on(tx_done), .rx_on(rx_done),
      .tx_data(gt4_txdata_in), .tx_header(gt4_txheader_in), .tx_sequence(gt4_txsequence_in),
      .loopback(gt4_loopback_in), .rx_slip(gt4_rxgearboxslip_in), .rx_data(gt4_rxdata_out),
      .rx_header(gt4_rxheader_out), .rx_data_valid(gt4_rxdatavalid_out), .rx_header_valid(gt4_rxheadervalid_out)
  );
  assign gt4_txoutclk_out = cpll_lock && txclk;
  assign gt4_rxoutclk_out = rxclk;
  assign gt4_tx_fsm_reset_done_out = tx_done;
  assign gt4_rx_fsm_reset_done_out = rx_done;
  assign gt4_gtxtxp_out = tx_done;
  assign gt4_gtxtxn_out = !tx_done;
  kolo_sim_gtx_ch u_ch5 (
      .tx_clk(gt5_txusrclk2_in), .rx_clk(gt5_rxusrclk2_in), .tx_on(tx_done), .rx_on(rx_done),
      .tx_data(gt5_txdata_in), .tx_header(gt5_txheader_in), .tx_sequence(gt5_txsequence_in),
      .loopback(gt5_loopback_in), .rx_slip(gt5_rxgearboxslip_in), .rx_data(gt5_rxdata_out),
      .rx_header(gt5_rxheader_out), .rx_data_valid(gt5_rxdatavalid_out), .rx_header_valid(gt5_rxheadervalid_out)
  );
  assign gt5_txoutclk_out = cpll_lock && txclk;
  assign gt5_rxoutclk_out = rxclk;
  assign gt5_tx_fsm_reset_done_out = tx_done;
  assign gt5_rx_fsm_reset_done_out = rx_done;
  assign gt5_gtxtxp_out = tx_done;
  assign gt5_gtxtxn_out = !tx_done;
  wire unused = &{1'b0, dont_reset_on_data_error_in,
                  gt0_gtrefclk0_in, gt0_txusrclk_in, gt0_rxusrclk_in, gt0_data_valid_in, gt0_gtxrxp_in,
                  gt0_gtxrxn_in, gt1_gtrefclk0_in, gt1_txusrclk_in, gt1_rxusrclk_in, gt1_data_valid_in,
                  gt1_gtxrxp_in, gt1_gtxrxn_in, gt2_gtrefclk0_in, gt2_txusrclk_in, gt2_rxusrclk_in,
                  gt2_data_valid_in, gt2_gtxrxp_in, gt2_gtxrxn_in, gt3_gtrefclk0_in, gt3_txusrclk_in,
                  gt3_rxusrclk_in, gt3_data_valid_in, gt3_gtxrxp_in, gt3_gtxrxn_in, gt4_gtrefclk0_in,
                  gt4_txusrclk_in, gt4_rxusrclk_in, gt4_data_valid_in, gt4_gtxrxp_in, gt4_gtxrxn_in,
                  gt5_gtrefclk0_in, gt5_txusrclk_in, gt5_rxusrclk_in, gt5_data_valid_in, gt5_gtxrxp_in,
                  gt5_gtxrxn_in};
endmodule
`default_nettype wire
