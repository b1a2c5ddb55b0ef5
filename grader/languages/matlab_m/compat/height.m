function n = height(x)
% MATLAB's height (R2020b): the number of rows.
  n = size(x, 1);
end
