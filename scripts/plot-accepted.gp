# One algorithm's run from scripts/plots.php as a PNG: accepted requests per
# 100 ms (bars) and in total (line, right axis), against what was offered.
# gnuplot -e "data='x.dat'; bins='x.bins'; out='x.png'; name='Fixed window'; queue=0" scripts/plot-accepted.gp
# queue=1 also draws when accepted requests leave a leaky bucket's queue.
set terminal pngcairo size 900,420 font 'DejaVu Sans,10'
set output out
set title name . ': 10 requests/s allowed, 40/s offered (one client id, real Redis)'
set xlabel 'seconds since the first request'
set ylabel 'accepted per 100 ms'
set y2label 'accepted in total'
set xrange [0:5]
set yrange [0:12]
set y2range [0:60]
set ytics nomirror
set y2tics
set grid ytics
set key top left
set style fill solid 0.6 noborder
set boxwidth 0.09
set datafile missing '?'
if (queue) {
  plot bins using 1:2 with boxes lc rgb '#4a7ab8' title 'accepted per 100 ms', \
       data using 4:5 with steps lw 2 dt 2 lc rgb '#2a9a4a' axes x1y2 title 'left the queue (call + delay), total', \
       data using 1:3 with steps lw 2 lc rgb '#c0392b' axes x1y2 title 'accepted, total', \
       10 * x + 10 with lines lc rgb '#888888' dt 3 axes x1y2 title '10/s + a burst of 10'
} else {
  plot bins using 1:2 with boxes lc rgb '#4a7ab8' title 'accepted per 100 ms', \
       data using 1:3 with steps lw 2 lc rgb '#c0392b' axes x1y2 title 'accepted, total', \
       10 * x + 10 with lines lc rgb '#888888' dt 3 axes x1y2 title '10/s + a burst of 10'
}
