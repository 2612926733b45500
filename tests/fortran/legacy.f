c     A Fortran 77 program of the kind FFTW's legacy interface serves:
c     a single-precision 1-D and a double-precision 2-D transform, each
c     checked against a direct sum. Prints PASS or FAIL.
      program legacy
      implicit none
      include 'fftw3.f'
      integer n, nx, ny, i, j, k, l
      parameter (n = 60, nx = 6, ny = 10)
      complex a(n), b(n)
      double complex c(nx, ny), d(nx, ny), s
      integer*8 plan
      real err
      double precision derr, pi
      pi = 4.0d0 * atan(1.0d0)
      do i = 1, n
         a(i) = cmplx(sin(real(i)), cos(real(3 * i)))
      end do
      call sfftw_plan_dft_1d(plan, n, a, b, FFTW_FORWARD,
     &                       FFTW_ESTIMATE)
      call sfftw_execute(plan)
      call sfftw_destroy_plan(plan)
      err = 0
      do k = 1, n
         s = 0
         do i = 1, n
            s = s + a(i) * exp(dcmplx(0d0,
     &          -2d0 * pi * mod((i - 1) * (k - 1), n) / n))
         end do
         err = max(err, real(abs(s - b(k))))
      end do
      do j = 1, ny
         do i = 1, nx
            c(i, j) = dcmplx(dble(i) / j, dble(j - i))
         end do
      end do
      call dfftw_plan_dft_2d(plan, nx, ny, c, d, FFTW_BACKWARD,
     &                       FFTW_ESTIMATE)
      call dfftw_execute(plan)
      call dfftw_destroy_plan(plan)
      derr = 0
      do l = 1, ny
         do k = 1, nx
            s = 0
            do j = 1, ny
               do i = 1, nx
                  s = s + c(i, j) * exp(dcmplx(0d0, 2d0 * pi *
     &              (dble((i - 1) * (k - 1)) / nx
     &             + dble((j - 1) * (l - 1)) / ny)))
               end do
            end do
            derr = max(derr, abs(s - d(k, l)))
         end do
      end do
      print *, 'single error', err, ' double error', derr
      if (err .lt. 1e-4 .and. derr .lt. 1d-10) then
         print *, 'PASS'
      else
         print *, 'FAIL'
         stop 1
      end if
      end
