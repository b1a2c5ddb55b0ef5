function n = width(x)
% MATLAB's width (R2020b): the number of columns.
  n = size(x, 2);
end
