; horizontal pair: one push puts two tiles side by side
; optimal 1 moves (simulator BFS)
; Board:
;   #####
;   #a.a#
;   #####
(define (problem puzznic-horizontal-pair)
  (:domain puzznic)
  (:objects
    r2-c2 r2-c3 r2-c4 - cell
    tile-a - kind)
  (:init
    (falling)
    (= (total-cost) 0)
    (right-of r2-c2 r2-c3)
    (right-of r2-c3 r2-c4)
    (has r2-c2 tile-a)
    (empty r2-c3)
    (has r2-c4 tile-a)
  )
  (:goal (and
    (empty r2-c2) (empty r2-c3) (empty r2-c4)))
  (:metric minimize (total-cost)))
