# kolo_cdc.sdc - clock-domain crossing constraints for every instance of
# kolo's crossing cells (rtl/common), for TimeQuest (Quartus): the names
# below match every instance (Quartus names a register inst|...|cell:inst|reg).
# Each crossing of the chip's clock list (docs/chip.md) goes through one of
# these cells:
#   kolo_sync_bit     into the first stage: a false path (single bits)
#   kolo_reset_sync   into the chain (asynchronous preset): a false path
#   kolo_fifo_async   the Gray pointers into the other side's first stage and
#                     the storage read by the other clock: max delay 6 ns
#                     (below the fastest lane clock's period), min delay
#                     unconstrained
#   kolo_sync_word    the holding register read by the destination: 6 ns
# Boards: cyclonev-gt (c5gt_build.tcl adds it after the board's SDC).
set_false_path -to [get_registers {*kolo_sync_bit:*|chain[0]*}]
set_false_path -to [get_registers {*kolo_reset_sync:*|chain*}]
set_max_delay -from [get_registers {*kolo_fifo_async:*|wr_gray*}] -to [get_registers {*kolo_fifo_async:*|rd_sync1_gray*}] 6.000
set_max_delay -from [get_registers {*kolo_fifo_async:*|rd_gray*}] -to [get_registers {*kolo_fifo_async:*|wr_sync1_gray*}] 6.000
set_min_delay -from [get_registers {*kolo_fifo_async:*|wr_gray*}] -to [get_registers {*kolo_fifo_async:*|rd_sync1_gray*}] -100.000
set_min_delay -from [get_registers {*kolo_fifo_async:*|rd_gray*}] -to [get_registers {*kolo_fifo_async:*|wr_sync1_gray*}] -100.000
set_max_delay -from [get_keepers {*kolo_fifo_async:*|mem*}] 6.000
set_max_delay -from [get_registers {*kolo_sync_word:*|hold*}] -to [get_registers {*kolo_sync_word:*|out*}] 6.000
set_min_delay -from [get_registers {*kolo_sync_word:*|hold*}] -to [get_registers {*kolo_sync_word:*|out*}] -100.000
